// What every instance of the cluster must share, and the people the suite plays. Seal keys and requestState keys
// identical on every instance: a record sealed, or a requestState signed, on one verifies on the others.
export const SEAL_KEYS = [{ id: "s1", secret: "multi-instance-seal-secret-0123456789abcdef" }];
export const STATE_KEYS = [{ id: "k1", secret: "multi-instance-request-state-0123456789" }];

/** Bearer tokens of the requesters. */
export const USERS: Record<string, string> = { "tok-dana": "u_dana", "tok-priya": "u_priya" };

export const DANA = { id: "u_dana", kind: "user" } as const;
/** Dana as MCP calls reach the runtime: the OAuth client acting for her (clientId "agent-1") is her acting agent. */
export const DANA_VIA_AGENT = { ...DANA, via: { id: "agent-1" } } as const;
export const MANAGER = { id: "u_manager", kind: "user" } as const;
export const LEAD = { id: "u_lead", kind: "user" } as const;
