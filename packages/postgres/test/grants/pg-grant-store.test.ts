import { beforeEach, describe, expect, it } from "vitest";
import { contractClock } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { makeGrantTerms } from "../../../../test-fixtures/grant-store-contract.js";
import { approvalsDdl } from "../../src/ddl.js";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { recordStatements } from "../support/statement-log.js";

// What the shared contract cannot say about PostgreSQL: statement shape (one round trip per use), float8 at the edges
// of its range, the DDL's checks, and the upgrade path of an existing install. Concurrency: contract.test.ts and the
// SI-13 attacks on the real server.
const PRIYA = { id: "user_priya", kind: "user" as const };

const pglite = usePglite(APPROVALS_DDL);
const { query } = pglite;
beforeEach(async () => {
  await pglite.db().query("truncate table orpc_agent_approvals, orpc_agent_grants");
});

describe("the grant store: statements", () => {
  it("SI-13: every operation is one statement, a use included, none with a lock, a transaction or the database clock", async () => {
    // Set far from the database's clock: only the injected instants decide.
    const clock = contractClock("2001-02-03T04:05:06.000Z");
    const recorded = recordStatements(query);
    const coordinator = createPgApprovalCoordinator({ query: recorded.query, now: clock.now });
    const terms = makeGrantTerms(clock.now, { budget: { path: "/amount", max: 100 } });
    const counts: Record<string, number> = {};
    const count = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const before = recorded.statements.length;
      const value = await run();
      counts[name] = recorded.statements.length - before;
      return value;
    };
    await count("createGrant", () => coordinator.createGrant(terms));
    const useAt = new Date(terms.expiresAt.getTime());
    expect(await count("useGrant", () => coordinator.useGrant(terms.id, { now: useAt, amount: 10 }))).toMatchObject({ usesLeft: 2, spent: 10 });
    expect(await count("refusedUse", () => coordinator.useGrant(terms.id, { now: useAt, amount: 91 }))).toBeNull();
    await count("getGrant", () => coordinator.getGrant(terms.id));
    await count("listGrants", () => coordinator.listGrants({ actorId: "user_dana", capabilityId: "orders.refund", active: true }));
    await count("revokeGrant", () => coordinator.revokeGrant(terms.id, { by: PRIYA, at: clock.now() }));
    expect(counts).toEqual({ createGrant: 1, useGrant: 1, refusedUse: 1, getGrant: 1, listGrants: 1, revokeGrant: 1 });

    for (const { sql } of recorded.statements) {
      expect(sql).not.toMatch(/\bbegin\b|\bcommit\b|for update|now\(\)|current_timestamp|clock_timestamp|localtimestamp/i);
    }
    const use = recorded.statements[1]!;
    expect(use.sql).toMatch(/^update orpc_agent_grants\nset uses_left = uses_left - 1/);
    // The runtime's instant is the expiry reference, sent as a parameter.
    expect(use.params).toEqual([terms.id, useAt.toISOString(), "10"]);
  });

  it("an invalid grantsTable is refused at construction, before any SQL", () => {
    for (const grantsTable of ["x; drop table t", "UPPER", "a.b.c", ""]) {
      expect(() => createPgApprovalCoordinator({ query, grantsTable })).toThrow(/Invalid table name/);
    }
    expect(() => createPgApprovalCoordinator({ query, grantsTable: "app.grants" })).not.toThrow();
  });

  it("terms core would never write are refused before SQL: uses not a whole number >= 0, a budget max not finite and above 0", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    await expect(coordinator.createGrant(makeGrantTerms(clock.now, { uses: 1.5 }))).rejects.toThrow(/Invalid uses/);
    await expect(coordinator.createGrant(makeGrantTerms(clock.now, { uses: -1 }))).rejects.toThrow(/Invalid uses/);
    for (const max of [Number.NaN, Number.POSITIVE_INFINITY, 0, -1]) {
      await expect(coordinator.createGrant(makeGrantTerms(clock.now, { budget: { path: "/amount", max } }))).rejects.toThrow(/Invalid budget max/);
    }
    expect(await coordinator.listGrants()).toEqual([]);
  });

  it("a use with an unreadable clock consumes nothing", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const terms = makeGrantTerms(clock.now);
    await coordinator.createGrant(terms);
    expect(await coordinator.useGrant(terms.id, { now: new Date(Number.NaN) })).toBeNull();
    expect(await coordinator.useGrant(terms.id, { now: "2030-01-01" as never })).toBeNull();
    expect((await coordinator.getGrant(terms.id))!.usesLeft).toBe(3);
  });
});

describe("the grant store: budgets in float8, at the edges of the range", () => {
  const MAX = Number.MAX_VALUE;

  it("near the top of the range a sum that would overflow is refused (null, as core answers), never a database error", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const terms = makeGrantTerms(clock.now, { uses: 10, budget: { path: "/amount", max: MAX } });
    await coordinator.createGrant(terms);
    expect(await coordinator.useGrant(terms.id, { now: clock.now(), amount: 1e308 })).toMatchObject({ spent: 1e308 });
    // 2e308 is past float8: JS says Infinity, PostgreSQL would raise; the store answers as core does.
    expect(await coordinator.useGrant(terms.id, { now: clock.now(), amount: 1e308 })).toBeNull();
    const rest = MAX - 1e308;
    expect(await coordinator.useGrant(terms.id, { now: clock.now(), amount: rest })).toMatchObject({ spent: 1e308 + rest, status: "exhausted" });
    expect((await coordinator.getGrant(terms.id))!.spent).toBe(MAX);
  });

  it("halving near the top stays exact: the same fits and misses as JS, one ulp either side of max", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const max = 1.5e308;
    const big = 1e308;
    // The largest amount that fits after `big` in double precision, and the next double up.
    let fits = max - big;
    while (big + nextUp(fits) <= max) fits = nextUp(fits);
    expect(big + fits <= max && !(big + nextUp(fits) <= max)).toBe(true);
    for (const [amount, expected] of [[nextUp(fits), null], [fits, big + fits]] as const) {
      const terms = makeGrantTerms(clock.now, { budget: { path: "/amount", max } });
      await coordinator.createGrant(terms);
      expect(await coordinator.useGrant(terms.id, { now: clock.now(), amount: big })).toMatchObject({ spent: big });
      const used = await coordinator.useGrant(terms.id, { now: clock.now(), amount });
      expect(used === null ? null : used.spent).toBe(expected);
    }
  });

  it("subnormal amounts and budgets are summed exactly, never a database underflow", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const tiny = Number.MIN_VALUE;
    const terms = makeGrantTerms(clock.now, { budget: { path: "/amount", max: 2 * tiny } });
    await coordinator.createGrant(terms);
    expect((await coordinator.useGrant(terms.id, { now: clock.now(), amount: tiny }))!.spent).toBe(tiny);
    expect((await coordinator.useGrant(terms.id, { now: clock.now(), amount: tiny }))!.spent).toBe(2 * tiny);
    expect(await coordinator.useGrant(terms.id, { now: clock.now(), amount: tiny })).toBeNull();

    const huge = makeGrantTerms(clock.now, { budget: { path: "/amount", max: MAX } });
    await coordinator.createGrant(huge);
    await coordinator.useGrant(huge.id, { now: clock.now(), amount: 1e308 });
    // A subnormal beside a value >= 2^1022: halving it would underflow in PostgreSQL; it adds nothing, as in JS.
    expect((await coordinator.useGrant(huge.id, { now: clock.now(), amount: tiny }))!.spent).toBe(1e308 + tiny);
  });

  it("spent reads back bit for bit whatever the session's extra_float_digits", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const terms = makeGrantTerms(clock.now, { uses: 5, budget: { path: "/amount", max: 1 } });
    await coordinator.createGrant(terms);
    await pglite.db().exec("set extra_float_digits = -15");
    try {
      await coordinator.useGrant(terms.id, { now: clock.now(), amount: 0.1 });
      const used = (await coordinator.useGrant(terms.id, { now: clock.now(), amount: 0.2 }))!;
      expect(used.spent).toBe(0.1 + 0.2);
      expect((await coordinator.getGrant(terms.id))!.spent).toBe(0.30000000000000004);
    } finally {
      await pglite.db().exec("reset extra_float_digits");
    }
  });
});

describe("the grants table's checks: a second line behind the statements", () => {
  it("refuses rows no statement writes: uses_left above uses or below 0, spent past max, a NaN max, half a revocation", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const terms = makeGrantTerms(clock.now, { budget: { path: "/amount", max: 100 } });
    await coordinator.createGrant(terms);
    for (const set of ["uses_left = 4", "uses_left = -1", "budget_spent = 101", "budget_max = 'NaN'", "budget_max = null", "revoked_at = '2030-01-01T00:00:00Z'"]) {
      await expect(pglite.db().query(`update orpc_agent_grants set ${set} where id = $1`, [terms.id])).rejects.toThrow(/check constraint/);
    }
    expect(await coordinator.getGrant(terms.id)).toMatchObject({ usesLeft: 3, spent: 0, budget: { max: 100 }, status: "active" });
  });
});

describe("upgrading an existing install", () => {
  it("re-applying APPROVALS_DDL over the previous release's approvals table adds conversation_id and the grants table, keeping every record", async () => {
    // A schema of its own on the shared PGlite (one connection, so the search path is this test's until reset).
    await pglite.db().exec("create schema legacy_install; set search_path to legacy_install");
    try {
      // The previous release's script: the approvals table without conversation_id, no grants table.
      await pglite.db().exec(approvalsDdl("orpc_agent_approvals").replace("alter table orpc_agent_approvals add column if not exists conversation_id text;\n", ""));
      await query(
        `insert into orpc_agent_approvals (id, capability_id, surface, actor, input, input_hash, reasons, types, risk, side_effect, status, requested_at, expires_at)
         values ('apr_old', 'orders.refund', 'direct', '{"id":"user_dana","kind":"user"}', '{"orderId":"o1"}', 'h', '[]', '[]', 'high', 'write', 'pending', '2030-01-01T00:00:00Z', '2030-01-01T00:15:00Z')`,
        [],
      );
      const clock = contractClock("2030-01-01T00:01:00.000Z");
      // Before the upgrade the new coordinator cannot read: the migration note's reason to re-apply first.
      await expect(createPgApprovalCoordinator({ query, now: clock.now }).get("apr_old")).rejects.toThrow(/conversation_id/);

      await pglite.db().exec(APPROVALS_DDL);
      await pglite.db().exec(APPROVALS_DDL);
      const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
      const old = (await coordinator.get("apr_old"))!;
      expect(old).toMatchObject({ id: "apr_old", status: "pending", input: { orderId: "o1" } });
      expect(old.conversationId).toBeUndefined();
      const terms = makeGrantTerms(clock.now);
      await coordinator.createGrant(terms);
      expect(await coordinator.useGrant(terms.id, { now: clock.now() })).toMatchObject({ usesLeft: 2 });
      expect((await pglite.db().query<{ n: number }>("select count(*)::int as n from legacy_install.orpc_agent_grants")).rows[0]!.n).toBe(1);
    } finally {
      await pglite.db().exec("reset search_path; drop schema legacy_install cascade");
    }
  });
});

/** The next double above a positive finite `x`. */
function nextUp(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}
