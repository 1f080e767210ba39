// SI-13 with `approvals.seal`: a grant row edited in its store (wider terms, another principal, a later expiry, more
// uses, a seal copied from another grant) or minted there covers nothing and reads as unknown.
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator, type GrantRecord } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { dana } from "./support/runtime.js";
import { HOUR, grant, grantRuntime, priya, refunds } from "./support/grants.js";

const KEY = { id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" };
const context = {};
const input = { customerId: "c_ada", amount: 10 };

type Tamper = (grant: GrantRecord) => GrantRecord;

/** An in-memory store whose grant rows an attacker rewrites on every read, as an edited database row would read. */
function tamperableGrants() {
  const inner = createInMemoryApprovalCoordinator();
  let tamper: Tamper | undefined;
  const edit = (record: GrantRecord | null) => (record === null || tamper === undefined ? record : tamper(structuredClone(record)));
  const coordinator: ApprovalCoordinator = {
    create: (request) => inner.create(request),
    get: (id) => inner.get(id),
    decide: (id, decision) => inner.decide(id, decision),
    markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
    list: (filter) => inner.list(filter),
    createGrant: (terms) => inner.createGrant(terms),
    getGrant: async (id) => edit(await inner.getGrant(id)),
    listGrants: async (filter) => (await inner.listGrants(filter)).map((record) => edit(record)!),
    useGrant: async (id, use) => edit(await inner.useGrant(id, use)),
    revokeGrant: (id, revocation) => inner.revokeGrant(id, revocation),
  };
  return { coordinator, inner, set: (t: Tamper | undefined) => void (tamper = t) };
}

async function sealedApp() {
  const store = tamperableGrants();
  const cap = refunds();
  const { runtime } = grantRuntime({ refund: cap.procedure }, { approvals: { coordinator: store.coordinator, seal: { keys: [KEY] } } });
  const issued = await runtime.grants.issue({
    capabilityId: "refund",
    actor: dana,
    surface: "direct",
    issuers: [priya],
    grant: grant({ uses: 2, conditions: [{ path: "/customerId", op: "eq", value: "c_ada" }], budget: { path: "/amount", max: 50 } }),
  });
  return { store, cap, runtime, issued };
}

describe("sealed grants (SI-13, SI-8)", () => {
  it("SI-13: a sealed grant works as issued: it carries a seal and covers", async () => {
    const { runtime, issued, cap } = await sealedApp();
    expect(issued.seal).toMatch(/^v1\.k1\./);
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("completed");
    expect(cap.ran).toHaveLength(1);
  });

  const edits: [string, Tamper][] = [
    ["another customer in the condition", (g) => ({ ...g, conditions: [{ path: "/customerId", op: "eq", value: "c_mallory" }] })],
    ["no conditions", (g) => ({ ...g, conditions: [] })],
    ["more uses", (g) => ({ ...g, uses: 40, usesLeft: 40 })],
    ["a bigger budget", (g) => ({ ...g, budget: { path: "/amount", max: 5000 } })],
    ["a later expiry", (g) => ({ ...g, expiresAt: new Date(g.expiresAt.getTime() + 24 * HOUR) })],
    ["another principal", (g) => ({ ...g, actor: { id: "mallory", kind: "user" } })],
    ["another acting agent", (g) => ({ ...g, actor: { ...g.actor, via: { id: "evil-bot" } } })],
    ["another scope", (g) => ({ ...g, scope: "conversation", conversationId: "chat_evil" })],
    ["extra types", (g) => ({ ...g, types: [...g.types, "cfo"] })],
    ["another issuer", (g) => ({ ...g, issuers: [{ id: "mallory", kind: "user" }] })],
    ["another definition digest", (g) => ({ ...g, definitionDigest: "sha256:" + "0".repeat(64) })],
    ["no seal", (g) => ({ ...g, seal: undefined })],
    ["a forged seal", (g) => ({ ...g, seal: "v1.k1." + "A".repeat(43) })],
    ["uses left above the grant's uses", (g) => ({ ...g, usesLeft: g.uses + 5 })],
    ["a negative spend", (g) => ({ ...g, spent: -1000 })],
  ];
  for (const [what, tamper] of edits) {
    it(`SI-13: an edited grant row covers nothing (${what})`, async () => {
      const { store, runtime, issued, cap } = await sealedApp();
      store.set(tamper);
      expect((await runtime.invoke("refund", input, { actor: { id: "mallory", kind: "user" }, context })).status).toBe("approval-required");
      expect((await runtime.invoke("refund", { customerId: "c_mallory", amount: 10 }, { actor: dana, context })).status).toBe("approval-required");
      expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
      expect(cap.ran).toHaveLength(0);
      if (what !== "uses left above the grant's uses" && what !== "a negative spend") {
        expect(await runtime.grants.get(issued.id)).toBeNull();
        expect(await runtime.grants.list()).toEqual([]);
        await expect(runtime.grants.revoke(issued.id, { by: priya })).rejects.toMatchObject({ code: "GRANT_NOT_FOUND" });
      }
    });
  }

  it("SI-13: a seal copied from another grant onto a row does not verify", async () => {
    const { store, runtime, issued, cap } = await sealedApp();
    const other = await runtime.grants.issue({ capabilityId: "refund", actor: { id: "mallory", kind: "user" }, surface: "direct", issuers: [priya], grant: grant({ uses: 50 }) });
    store.set((g) => (g.id === issued.id ? g : { ...g, actor: dana, seal: other.seal }));
    await store.inner.revokeGrant(issued.id, { by: priya, at: new Date() });
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);
  });

  it("SI-13: a grant minted directly in the store (no runtime seal) covers nothing", async () => {
    const { store, runtime, issued, cap } = await sealedApp();
    await store.inner.revokeGrant(issued.id, { by: priya, at: new Date() });
    const { seal: _seal, status: _s, usesLeft: _u, spent: _sp, revoked: _r, ...terms } = issued;
    await store.inner.createGrant({ ...terms, id: "grt_minted", uses: 50 });
    expect((await runtime.invoke("refund", input, { actor: dana, context })).status).toBe("approval-required");
    expect(await runtime.grants.get("grt_minted")).toBeNull();
    expect(cap.ran).toHaveLength(0);
  });
});
