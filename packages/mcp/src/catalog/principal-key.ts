import type { Actor } from "@orpc-agent/core";

/**
 * The key of everything the adapter keeps for one principal between requests: in-flight calls, pending 2025-era
 * retries, remembered client capabilities, sessions, sealed request states. A principal is the actor's id and kind
 * and the OAuth client acting for it (`via`), as the runtime binds approvals (SI-3); never a token's text, which two
 * principals can share (one gateway token, or none at all). JSON of a fixed-length array: no two principals share
 * a key, whatever characters their ids hold.
 */
export function principalKey(actor: Pick<Actor, "id" | "kind" | "via">): string {
  return JSON.stringify([actor.id, actor.kind, actor.via?.id ?? null]);
}
