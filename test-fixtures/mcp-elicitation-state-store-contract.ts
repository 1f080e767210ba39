// The MCP elicitation state store contract (issue 48): what the v2 endpoint needs of `options.urlElicitation.store`
// to answer 2025-era clients alike on every instance. The in-memory default (@orpc-agent/mcp) and the PostgreSQL
// store (@orpc-agent/postgres) run it unchanged. It imports only vitest; the types mirror the seam
// (packages/mcp/src/approvals/elicitation-state-store.ts) structurally.
import { describe, expect, it } from "vitest";

export type ContractPending = { approvalId: string; url: string; message: string; expiresAt: number };
export type ContractDeclared = { capabilities: unknown; expiresAt?: number };

export type ContractElicitationStateStore = {
  getPending(principal: string, callKey: string, now: number): Promise<ContractPending | undefined>;
  setPending(principal: string, callKey: string, pending: ContractPending): Promise<void>;
  deletePending(principal: string, callKey: string): Promise<void>;
  getDeclaredCapabilities(principal: string, now: number): Promise<ContractDeclared | undefined>;
  setDeclaredCapabilities(principal: string, declared: ContractDeclared): Promise<void>;
};

export type ContractLimits = { pending: { perPrincipal: number; total: number }; declaredCapabilities: { perPrincipal: number; total: number } };

// Far in the future, so a store's own clock (the PostgreSQL store deletes rows expired by its clock on write) never
// meets the instants the tests read at.
const NOW = 4_000_000_000_000;
// Principal keys as the adapter forms them: JSON of [id, kind, via].
const DANA = JSON.stringify(["u_dana", "user", null]);
const PRIYA = JSON.stringify(["u_priya", "user", null]);
const MALLORY = JSON.stringify(["u_mallory", "user", null]);
let counter = 0;

export function makePending(overrides: Partial<ContractPending> = {}): ContractPending {
  counter += 1;
  return { approvalId: `apr_${counter}`, url: `https://approvals.example.test/requests/apr_${counter}`, message: "Awaiting approval ü ✓.", expiresAt: NOW + 60_000, ...overrides };
}

const callKey = (n: number | string) => JSON.stringify(["payments.refund", `hash-${n}`]);
const URL_DECLARED = { capabilities: { elicitation: { url: {} }, roots: { listChanged: true } }, expiresAt: NOW + 60_000 };

/** `makeStore(limits)` answers an empty store with those bounds. */
export function describeMCPElicitationStateStoreContract(title: string, makeStore: (limits: ContractLimits) => Promise<ContractElicitationStateStore>): void {
  const open = () => makeStore({ pending: { perPrincipal: 100, total: 10_000 }, declaredCapabilities: { perPrincipal: 1, total: 10_000 } });

  describe(`${title}: MCP elicitation state store contract`, () => {
    it("a pending retry reads back whole by its principal and call key, and is gone once deleted", async () => {
      const store = await open();
      const pending = makePending();
      await store.setPending(DANA, callKey(1), pending);
      expect(await store.getPending(DANA, callKey(1), NOW)).toEqual(pending);
      expect(await store.getPending(DANA, callKey(2), NOW)).toBeUndefined();
      await store.deletePending(DANA, callKey(1));
      expect(await store.getPending(DANA, callKey(1), NOW)).toBeUndefined();
      // Deleting what is not there is no error.
      await store.deletePending(DANA, callKey(1));
    });

    it("setting a pending retry again replaces it", async () => {
      const store = await open();
      await store.setPending(DANA, callKey(1), makePending());
      const next = makePending();
      await store.setPending(DANA, callKey(1), next);
      expect(await store.getPending(DANA, callKey(1), NOW)).toEqual(next);
    });

    it("SI-3: another principal's call key answers exactly like an unknown one, and cannot delete it", async () => {
      const store = await open();
      const pending = makePending();
      await store.setPending(DANA, callKey(1), pending);
      expect(await store.getPending(MALLORY, callKey(1), NOW)).toBeUndefined();
      expect(await store.getPending(MALLORY, callKey(1), NOW)).toEqual(await store.getPending(MALLORY, callKey("unknown"), NOW));
      await store.deletePending(MALLORY, callKey(1));
      expect(await store.getPending(DANA, callKey(1), NOW)).toEqual(pending);
    });

    it("SI-3: another principal's declaration answers exactly like none", async () => {
      const store = await open();
      await store.setDeclaredCapabilities(DANA, URL_DECLARED);
      expect(await store.getDeclaredCapabilities(DANA, NOW)).toEqual(URL_DECLARED);
      expect(await store.getDeclaredCapabilities(MALLORY, NOW)).toBeUndefined();
      await store.setDeclaredCapabilities(MALLORY, { capabilities: {}, expiresAt: NOW + 60_000 });
      expect(await store.getDeclaredCapabilities(DANA, NOW)).toEqual(URL_DECLARED);
    });

    it("the latest declaration stands", async () => {
      const store = await open();
      await store.setDeclaredCapabilities(DANA, URL_DECLARED);
      const later = { capabilities: {}, expiresAt: NOW + 120_000 };
      await store.setDeclaredCapabilities(DANA, later);
      expect(await store.getDeclaredCapabilities(DANA, NOW)).toEqual(later);
    });

    it("an expired pending retry reads as absent, and stays absent", async () => {
      const store = await open();
      const pending = makePending({ expiresAt: NOW + 10 });
      await store.setPending(DANA, callKey(1), pending);
      expect(await store.getPending(DANA, callKey(1), NOW + 9)).toEqual(pending);
      expect(await store.getPending(DANA, callKey(1), NOW + 10)).toBeUndefined();
      expect(await store.getPending(DANA, callKey(1), NOW + 11)).toBeUndefined();
    });

    it("an expired declaration reads as absent; one without expiry never expires", async () => {
      const store = await open();
      await store.setDeclaredCapabilities(DANA, { ...URL_DECLARED, expiresAt: NOW + 10 });
      expect(await store.getDeclaredCapabilities(DANA, NOW + 9)).toEqual({ ...URL_DECLARED, expiresAt: NOW + 10 });
      expect(await store.getDeclaredCapabilities(DANA, NOW + 10)).toBeUndefined();
      const forever = { capabilities: URL_DECLARED.capabilities };
      await store.setDeclaredCapabilities(PRIYA, forever);
      expect(await store.getDeclaredCapabilities(PRIYA, NOW + 10 ** 9)).toEqual(forever);
    });

    it("values are copies: changing one written or read back changes nothing stored", async () => {
      const store = await open();
      const pending = makePending();
      const original = structuredClone(pending);
      await store.setPending(DANA, callKey(1), pending);
      pending.approvalId = "apr_other";
      const read = (await store.getPending(DANA, callKey(1), NOW))!;
      expect(read).toEqual(original);
      read.url = "https://evil.example.test/";
      expect(await store.getPending(DANA, callKey(1), NOW)).toEqual(original);

      const declared = structuredClone(URL_DECLARED);
      await store.setDeclaredCapabilities(DANA, declared);
      (declared.capabilities as { elicitation?: unknown }).elicitation = undefined;
      const back = (await store.getDeclaredCapabilities(DANA, NOW))!;
      expect(back).toEqual(URL_DECLARED);
      (back.capabilities as { elicitation?: unknown }).elicitation = undefined;
      expect(await store.getDeclaredCapabilities(DANA, NOW)).toEqual(URL_DECLARED);
    });

    it("bounded per principal: a principal's least recently set retry gives way, another principal's stay", async () => {
      const store = await makeStore({ pending: { perPrincipal: 3, total: 100 }, declaredCapabilities: { perPrincipal: 1, total: 100 } });
      const priyas = makePending();
      await store.setPending(PRIYA, callKey(0), priyas);
      const danas = [makePending(), makePending(), makePending()];
      for (const [i, pending] of danas.entries()) await store.setPending(DANA, callKey(i), pending);
      // Set again: now the newest of dana's, so call 1 is the least recently set.
      await store.setPending(DANA, callKey(0), danas[0]!);
      const fourth = makePending();
      await store.setPending(DANA, callKey(3), fourth);
      expect(await store.getPending(DANA, callKey(1), NOW)).toBeUndefined();
      expect(await store.getPending(DANA, callKey(0), NOW)).toEqual(danas[0]);
      expect(await store.getPending(DANA, callKey(2), NOW)).toEqual(danas[2]);
      expect(await store.getPending(DANA, callKey(3), NOW)).toEqual(fourth);
      expect(await store.getPending(PRIYA, callKey(0), NOW)).toEqual(priyas);
    });

    it("bounded in total: the least recently set retry of the largest holder gives way", async () => {
      const store = await makeStore({ pending: { perPrincipal: 100, total: 4 }, declaredCapabilities: { perPrincipal: 1, total: 100 } });
      const small = makePending();
      await store.setPending(PRIYA, callKey(0), small);
      const large = [makePending(), makePending(), makePending(), makePending()];
      for (const [i, pending] of large.entries()) await store.setPending(DANA, callKey(i), pending);
      expect(await store.getPending(PRIYA, callKey(0), NOW)).toEqual(small);
      expect(await store.getPending(DANA, callKey(0), NOW)).toBeUndefined();
      for (const i of [1, 2, 3]) expect(await store.getPending(DANA, callKey(i), NOW)).toEqual(large[i]);
    });

    it("bounded in total for declarations too, and the two kinds are counted apart", async () => {
      const store = await makeStore({ pending: { perPrincipal: 100, total: 100 }, declaredCapabilities: { perPrincipal: 1, total: 2 } });
      await store.setPending(DANA, callKey(0), makePending());
      await store.setPending(DANA, callKey(1), makePending());
      await store.setDeclaredCapabilities(DANA, URL_DECLARED);
      await store.setDeclaredCapabilities(PRIYA, URL_DECLARED);
      await store.setDeclaredCapabilities(MALLORY, URL_DECLARED);
      // One declaration each: dana's, the least recently set, gives way; her retries do not count against it.
      expect(await store.getDeclaredCapabilities(DANA, NOW)).toBeUndefined();
      expect(await store.getDeclaredCapabilities(PRIYA, NOW)).toEqual(URL_DECLARED);
      expect(await store.getDeclaredCapabilities(MALLORY, NOW)).toEqual(URL_DECLARED);
      expect(await store.getPending(DANA, callKey(0), NOW)).toBeDefined();
      expect(await store.getPending(DANA, callKey(1), NOW)).toBeDefined();
    });
  });
}
