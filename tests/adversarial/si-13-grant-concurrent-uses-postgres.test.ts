// SI-13 on the real PostgreSQL server: each use of a standing grant is consumed exactly once, atomically with its
// check, across connections and app instances. Every race is gated: a third connection holds the grant's row while
// the uses queue on it, so each waiting UPDATE must re-check the committed row rather than merely overlap in time.
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { AgentAuditEvent, GrantRecord } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { makeGrantTerms } from "../../test-fixtures/grant-store-contract.js";
import { base, build, dana, meta } from "./support/runtime.js";
import { useGrantsSchema } from "./support/grants-on-postgres.js";

const db = useGrantsSchema("orpc_adv_si13_uses");
// Two app instances, each with its own pool, shared by every test of the file: the server's connections are shared
// with the rest of the suite.
const POOL_SIZE = 8;
const instances = [db.instance(POOL_SIZE), db.instance(POOL_SIZE)] as const;
// Every connection of both instances blocked on the grant's row.
const WAITERS = 2 * POOL_SIZE;
const priya = { id: "priya", kind: "user" as const };
const HOUR = 3_600_000;
const context = {};

/** Two coordinators over the same tables, on separate pools: two app instances. */
function twoInstances() {
  return [createPgApprovalCoordinator({ query: instances[0].query }), createPgApprovalCoordinator({ query: instances[1].query })] as const;
}

/** A refund that opts into grants, and one runtime per instance over the same tables. */
function refundApp() {
  const ran: { amount: number }[] = [];
  const refund = base
    .input(z.object({ customerId: z.string(), amount: z.number() }))
    .meta({ agent: meta({ approval: { required: true, type: "manager", grants: { maxUses: 100, maxTtlMs: HOUR, scopes: ["conversation", "actor"] } } }) })
    .handler(({ input }) => {
      ran.push({ amount: input.amount });
      return "refunded";
    });
  const runtimes = instances.map((instance) => {
    const coordinator = createPgApprovalCoordinator({ query: instance.query });
    const built = build({ defs: { refund }, approvals: { coordinator, seal: false } });
    return { ...built, coordinator };
  });
  const events = (): AgentAuditEvent[] => runtimes.flatMap((r) => r.events);
  return { runtimes, ran, events };
}

describe("SI-13 on PostgreSQL: the store's atomic check-and-consume", () => {
  it("SI-13: 50 concurrent uses of a 3-use grant through two instances' stores consume exactly 3, each a distinct use", async () => {
    const [a, b] = twoInstances();
    const terms = makeGrantTerms(() => new Date(), { uses: 3 });
    await a.createGrant(terms);
    const results = await db.gated(terms.id, WAITERS, () => Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).useGrant(terms.id, { now: new Date() })));
    const used = (await Promise.all(results)).filter((r): r is GrantRecord => r !== null);
    expect(used).toHaveLength(3);
    expect(used.map((r) => r.usesLeft).sort()).toEqual([0, 1, 2]);
    expect(await b.getGrant(terms.id)).toMatchObject({ usesLeft: 0, status: "exhausted" });
  });

  it("SI-13: concurrent budget uses never overspend: the amounts taken sum to spent, at most max", async () => {
    const [a, b] = twoInstances();
    const terms = makeGrantTerms(() => new Date(), { uses: 100, budget: { path: "/amount", max: 100 } });
    await a.createGrant(terms);
    const amounts = Array.from({ length: 40 }, (_, i) => 7 + (i % 5));
    const results = await db.gated(terms.id, WAITERS, () => amounts.map((amount, i) => (i % 2 === 0 ? a : b).useGrant(terms.id, { now: new Date(), amount })));
    const settled = await Promise.all(results);
    const taken = amounts.filter((_, i) => settled[i] !== null);
    const sum = taken.reduce((total, amount) => total + amount, 0);
    const stored = (await a.getGrant(terms.id))!;
    expect(stored.spent).toBe(sum);
    expect(sum).toBeLessThanOrEqual(100);
    // Nothing that was refused would still have fitted: the budget ran out, not the race.
    expect(100 - sum).toBeLessThan(Math.min(...amounts));
    expect(stored.usesLeft).toBe(100 - taken.length);
  });

  it("SI-13: a use racing a revoke: once revokeGrant resolves no use succeeds, and the uses taken are exactly those counted", async () => {
    const [a, b] = twoInstances();
    const terms = makeGrantTerms(() => new Date(), { uses: 100 });
    await a.createGrant(terms);
    const { racing, revoking } = await db.gated(terms.id, WAITERS, () => ({
      racing: Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).useGrant(terms.id, { now: new Date() })),
      revoking: b.revokeGrant(terms.id, { by: priya, at: new Date() }),
    }));
    const revoked = (await revoking)!;
    expect(revoked.status).toBe("revoked");
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).useGrant(terms.id, { now: new Date() })));
    expect(after.every((r) => r === null)).toBe(true);
    const succeeded = (await Promise.all(racing)).filter((r) => r !== null).length;
    const stored = (await a.getGrant(terms.id))!;
    expect(stored.usesLeft).toBe(100 - succeeded);
    // Uses that were queued behind the revoke found it committed and took nothing.
    expect(stored.usesLeft).toBeLessThanOrEqual(revoked.usesLeft);
  });
});

describe("SI-13 on PostgreSQL: end to end through the runtime", () => {
  it("SI-13: 50 concurrent invoke calls on a 3-use grant, through two runtimes on one database, run exactly 3 handlers", async () => {
    // Its own principal: the grants of the other tests share the table and would cover its calls.
    const actor = { ...dana, id: "dana_uses" };
    const { runtimes, ran, events } = refundApp();
    const issued = await runtimes[0]!.runtime.grants.issue({ capabilityId: "refund", actor, surface: "direct", issuers: [priya], grant: { uses: 3, ttlMs: HOUR, scope: "actor" } });
    const results = await db.gated(issued.id, WAITERS, () =>
      Array.from({ length: 50 }, (_, i) => runtimes[i % 2]!.runtime.invoke("refund", { customerId: "c_ada", amount: 10 }, { actor, context })),
    );
    const settled = await Promise.all(results);
    expect(settled.filter((r) => r.status === "completed")).toHaveLength(3);
    expect(settled.filter((r) => r.status === "approval-required")).toHaveLength(47);
    expect(ran).toHaveLength(3);
    expect(await runtimes[1]!.runtime.grants.get(issued.id)).toMatchObject({ usesLeft: 0, status: "exhausted" });
    const covered = events().filter((e) => e.type === "capability.approved" && (e.data as { grant?: unknown }).grant !== undefined);
    expect(covered.map((e) => (e.data as { grant: { id: string; usesLeft: number } }).grant).sort((x, y) => x.usesLeft - y.usesLeft)).toEqual([
      { id: issued.id, usesLeft: 0 },
      { id: issued.id, usesLeft: 1 },
      { id: issued.id, usesLeft: 2 },
    ]);
  });

  it("SI-13: concurrent covered calls never spend past the grant's budget", async () => {
    // Its own principal: the grants of the other tests share the table and would cover its calls.
    const actor = { ...dana, id: "dana_budget" };
    const { runtimes, ran } = refundApp();
    const issued = await runtimes[0]!.runtime.grants.issue({
      capabilityId: "refund",
      actor,
      surface: "direct",
      issuers: [priya],
      grant: { uses: 100, ttlMs: HOUR, scope: "actor", budget: { path: "/amount", max: 100 } },
    });
    const amounts = Array.from({ length: 40 }, (_, i) => 7 + (i % 5));
    const results = await db.gated(issued.id, WAITERS, () =>
      amounts.map((amount, i) => runtimes[i % 2]!.runtime.invoke("refund", { customerId: "c_ada", amount }, { actor, context })),
    );
    const settled = await Promise.all(results);
    const spent = ran.reduce((total, call) => total + call.amount, 0);
    expect(spent).toBeLessThanOrEqual(100);
    // The calls that asked did so because the budget ran out, not because they lost a race.
    expect(100 - spent).toBeLessThan(Math.min(...amounts));
    expect(settled.filter((r) => r.status === "completed")).toHaveLength(ran.length);
    expect((await runtimes[0]!.runtime.grants.get(issued.id))!).toMatchObject({ spent, usesLeft: 100 - ran.length });
  });

  it("SI-13: a call racing a revoke: none is covered once revoke returned; handlers ran only for the uses taken", async () => {
    // Its own principal: the grants of the other tests share the table and would cover its calls.
    const actor = { ...dana, id: "dana_revoke" };
    const { runtimes, ran } = refundApp();
    const issued = await runtimes[0]!.runtime.grants.issue({ capabilityId: "refund", actor, surface: "direct", issuers: [priya], grant: { uses: 50, ttlMs: HOUR, scope: "actor" } });
    const { racing, revoking } = await db.gated(issued.id, WAITERS, () => ({
      racing: Array.from({ length: 30 }, (_, i) => runtimes[i % 2]!.runtime.invoke("refund", { customerId: "c_ada", amount: 1 }, { actor, context })),
      revoking: runtimes[1]!.runtime.grants.revoke(issued.id, { by: priya, reason: "the customer disputed" }),
    }));
    const revoked = await revoking;
    expect(revoked.status).toBe("revoked");
    const after = await Promise.all(Array.from({ length: 10 }, (_, i) => runtimes[i % 2]!.runtime.invoke("refund", { customerId: "c_ada", amount: 1 }, { actor, context })));
    expect(after.every((r) => r.status === "approval-required")).toBe(true);
    const raced = await Promise.all(racing);
    const stored = (await runtimes[0]!.runtime.grants.get(issued.id))!;
    expect(raced.filter((r) => r.status === "completed")).toHaveLength(50 - stored.usesLeft);
    expect(ran).toHaveLength(50 - stored.usesLeft);
  });
});
