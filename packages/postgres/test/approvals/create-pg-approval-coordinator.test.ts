import { beforeEach, describe, expect, it } from "vitest";
import { contractClock, makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { APPROVALS_DDL, createPgApprovalCoordinator, type PgQuery } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { recordStatements } from "../support/statement-log.js";

const MANAGER = { id: "user_manager", kind: "user" } as const;

const pglite = usePglite(APPROVALS_DDL);
const { query } = pglite;
beforeEach(async () => {
  await pglite.db().query("truncate table orpc_agent_approvals");
});

describe("createPgApprovalCoordinator: construction", () => {
  it("throws a TypeError when query is missing", () => {
    expect(() => createPgApprovalCoordinator({} as never)).toThrow(TypeError);
    expect(() => createPgApprovalCoordinator({} as never)).toThrow(/query is required/);
    expect(() => createPgApprovalCoordinator(undefined as never)).toThrow(/query is required/);
    expect(() => createPgApprovalCoordinator({ query: "select 1" } as never)).toThrow(/query is required/);
  });

  it.each(["x; drop table t", 'a"b', "1abc", "UPPER", "a.b.c", "", "a b", "a.", ".a", "a-b", `t${"x".repeat(63)}`])(
    "rejects the table name %j before any SQL can carry it",
    (table) => {
      expect(() => createPgApprovalCoordinator({ query, table })).toThrow(TypeError);
      expect(() => createPgApprovalCoordinator({ query, table })).toThrow(/Invalid table name/);
    },
  );

  it("accepts plain and schema-qualified names up to 63 characters per part, and touches no database", () => {
    const calls: string[] = [];
    const spy: PgQuery = async (sql) => {
      calls.push(sql);
      return { rows: [] };
    };
    for (const table of ["approvals", "_a1", "app.approvals", `${"s".repeat(63)}.${"t".repeat(63)}`]) {
      expect(() => createPgApprovalCoordinator({ query: spy, table })).not.toThrow();
    }
    expect(calls).toEqual([]);
  });

  it("rejects a non-function clock", () => {
    expect(() => createPgApprovalCoordinator({ query, now: new Date() as never })).toThrow(TypeError);
  });
});

describe("createPgApprovalCoordinator: input encoding", () => {
  it("round-trips arrays, numbers, booleans, strings and nested values, keeping null and absent distinct", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const cases: { input: unknown; sql: string }[] = [
      { input: [1, "two", null, false, [3]], sql: `[1, "two", null, false, [3]]` },
      { input: 42.125, sql: "42.125" },
      { input: -0.1, sql: "-0.1" },
      { input: true, sql: "true" },
      { input: false, sql: "false" },
      { input: "abc", sql: `"abc"` },
      { input: "null", sql: `"null"` },
      { input: "{\"a\":1}", sql: `"{\\"a\\":1}"` },
      { input: { n: 1e21, s: "it's", deep: { list: [{}] } }, sql: `{"n": 1000000000000000000000, "s": "it's", "deep": {"list": [{}]}}` },
      { input: null, sql: "null" },
    ];
    let nullId = "";
    for (const { input, sql } of cases) {
      const request = makeApprovalRequest(clock.now, { input });
      if (input === null) nullId = request.id;
      expect((await coordinator.create(request)).input).toStrictEqual(input);
      expect((await coordinator.get(request.id))!.input).toStrictEqual(input);
      const stored = await pglite.db().query<{ text: string }>("select input::text as text from orpc_agent_approvals where id = $1", [request.id]);
      expect(stored.rows[0]!.text).toBe(sql);
    }
    const absent = makeApprovalRequest(clock.now, { input: undefined });
    expect("input" in absent).toBe(true);
    expect((await coordinator.create(absent)).input).toBeUndefined();
    expect((await coordinator.get(absent.id))!.input).toBeUndefined();
    // Absent is SQL NULL, null is the JSON null: distinct in storage too.
    const { rows } = await pglite.db().query<{ id: string; sql_null: boolean }>(
      "select id, input is null as sql_null from orpc_agent_approvals where input is null or input = 'null'::jsonb order by id",
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.sql_null]))).toEqual({ [absent.id]: true, [nullId]: false });
  });

  it("never interpolates values: quotes and SQL in ids, filters and inputs are data", async () => {
    const coordinator = createPgApprovalCoordinator({ query });
    const id = "apr_'); drop table orpc_agent_approvals; --";
    const request = makeApprovalRequest(new Date(), { id, capabilityId: "a'b", input: { q: "'; select 1; --" } });
    await coordinator.create(request);
    expect((await coordinator.get(id))!.input).toEqual({ q: "'; select 1; --" });
    expect((await coordinator.list({ capabilityId: "a'b", actorId: "' or '1'='1" })).length).toBe(0);
    expect((await coordinator.list({ capabilityId: "a'b" })).map((r) => r.id)).toEqual([id]);
  });

  it("rejects a string jsonb cannot hold, so create fails instead of storing a changed input (postgres.md §6)", async () => {
    const coordinator = createPgApprovalCoordinator({ query });
    const request = makeApprovalRequest(new Date(), { input: { text: "nul\u0000here" } });
    await expect(coordinator.create(request)).rejects.toThrow();
    expect(await coordinator.get(request.id)).toBeNull();
  });
});

describe("createPgApprovalCoordinator: statement shape", () => {
  const FORBIDDEN = [/\bbegin\b/i, /\bcommit\b/i, /for\s+update/i, /now\(\)/i, /current_timestamp/i, /clock_timestamp/i, /localtimestamp/i, /transaction_timestamp/i];

  it("a successful decide and a successful markConsumed each issue exactly one statement; decide carries the clock instant", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const recorder = recordStatements(query);
    const coordinator = createPgApprovalCoordinator({ query: recorder.query, now: clock.now });
    const request = makeApprovalRequest(clock.now);
    await coordinator.create(request);
    clock.advance(61_000);
    const instant = clock.now().toISOString();

    recorder.statements.length = 0;
    const decided = await coordinator.decide(request.id, { status: "approved", approver: MANAGER });
    expect(recorder.statements).toHaveLength(1);
    // The update, wrapped so the same statement also NOTIFYs the decision (docs/reference/postgres.md#decisions-across-instances).
    expect(recorder.statements[0]!.sql).toMatch(/^(with decided as \()?update /);
    expect(recorder.statements[0]!.params).toContain(instant);
    expect(decided.decision!.decidedAt.toISOString()).toBe(instant);

    recorder.statements.length = 0;
    await coordinator.markConsumed(request.id, "exe_1");
    expect(recorder.statements).toHaveLength(1);
    expect(recorder.statements[0]!.sql).toMatch(/^update /);
  });

  it("no statement of any operation opens a transaction, locks a row or reads the database clock", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const recorder = recordStatements(query);
    const coordinator = createPgApprovalCoordinator({ query: recorder.query, now: clock.now });
    const first = makeApprovalRequest(clock.now);
    const second = makeApprovalRequest(clock.now);
    await coordinator.create(first);
    await coordinator.create(second);
    await expect(coordinator.create(first)).rejects.toThrow(/already exists/);
    await coordinator.get(first.id);
    await coordinator.decide(first.id, { status: "approved", approver: MANAGER });
    await expect(coordinator.decide(first.id, { status: "rejected", approver: MANAGER })).rejects.toMatchObject({ code: "APPROVAL_ALREADY_DECIDED" });
    await coordinator.markConsumed(first.id, "exe_1");
    await expect(coordinator.markConsumed(first.id, "exe_2")).rejects.toThrow(/cannot be consumed/);
    for (const status of [undefined, "pending", "expired", "approved", "cancelled"] as const) {
      await coordinator.list({ status, capabilityId: "orders.refund", actorId: "user_requester" });
    }
    await coordinator.list();

    expect(recorder.statements.length).toBeGreaterThan(10);
    for (const { sql, params } of recorder.statements) {
      for (const pattern of FORBIDDEN) expect(sql).not.toMatch(pattern);
      expect(sql).not.toContain(";");
      for (const param of params) expect(param === null || typeof param === "string").toBe(true);
    }
  });

  it("the list status filter uses the clock reading as a parameter, and no value is spliced into the text", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const recorder = recordStatements(query);
    const coordinator = createPgApprovalCoordinator({ query: recorder.query, now: clock.now });
    await coordinator.list({ status: "expired", capabilityId: "cap_marker", actorId: "actor_marker" });
    const [{ sql, params }] = recorder.statements as [{ sql: string; params: unknown[] }];
    expect(params).toEqual(expect.arrayContaining(["cap_marker", "actor_marker", clock.now().toISOString()]));
    expect(sql).not.toMatch(/cap_marker|actor_marker|2030/);
  });

  it("a driver rejection propagates unchanged, without retry or wrapping", async () => {
    const failure = new Error("connection terminated");
    let calls = 0;
    const coordinator = createPgApprovalCoordinator({
      query: async () => {
        calls++;
        throw failure;
      },
    });
    await expect(coordinator.get("apr_1")).rejects.toBe(failure);
    await expect(coordinator.decide("apr_1", { status: "approved", approver: MANAGER })).rejects.toBe(failure);
    await expect(coordinator.markConsumed("apr_1", "exe_1")).rejects.toBe(failure);
    await expect(coordinator.create(makeApprovalRequest(new Date()))).rejects.toBe(failure);
    await expect(coordinator.list()).rejects.toBe(failure);
    expect(calls).toBe(5);
  });

  it("a decision that fails its guards, or a consumption without an execution id, issues no statement at all", async () => {
    const recorder = recordStatements(query);
    const coordinator = createPgApprovalCoordinator({ query: recorder.query });
    await expect(coordinator.decide("apr_1", { status: "maybe" } as never)).rejects.toMatchObject({ code: "INPUT_INVALID" });
    await expect(coordinator.decide("apr_1", { status: "approved", approver: { id: "", kind: "user" } })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(coordinator.decide("apr_1", { status: "approved", approver: { id: "someone", kind: "anonymous" } })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(coordinator.markConsumed("apr_1", "")).rejects.toThrow(/cannot be consumed without an execution id/);
    await expect(coordinator.markConsumed("apr_1", undefined as never)).rejects.toThrow(/cannot be consumed/);
    expect(recorder.statements).toEqual([]);
  });
});

describe("createPgApprovalCoordinator: clock", () => {
  it("works with a clock far from the database's (2001): create, decide, and expiry follow the injected clock only", async () => {
    const clock = contractClock("2001-06-01T12:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const decided = makeApprovalRequest(clock.now);
    const left = makeApprovalRequest(clock.now);
    await coordinator.create(decided);
    await coordinator.create(left);

    // Were the database clock consulted, every 2001 record would already be expired.
    clock.advance(14 * 60_000);
    const record = await coordinator.decide(decided.id, { status: "approved", approver: MANAGER });
    expect(record.status).toBe("approved");
    expect(record.decision!.decidedAt.toISOString()).toBe("2001-06-01T12:14:00.000Z");
    expect((await coordinator.get(left.id))!.status).toBe("pending");
    expect((await coordinator.list({ status: "pending" })).map((r) => r.id)).toEqual([left.id]);

    clock.advance(60_001);
    expect((await coordinator.get(left.id))!.status).toBe("expired");
    expect((await coordinator.list({ status: "expired" })).map((r) => r.id)).toEqual([left.id]);
    await expect(coordinator.decide(left.id, { status: "approved", approver: MANAGER })).rejects.toMatchObject({
      code: "APPROVAL_EXPIRED",
      cause: new Error(`Approval "${left.id}" is not pending (status: expired)`),
    });

    // Expiry is never written back: turning the clock back makes the record pending again.
    clock.set("2001-06-01T12:00:00.000Z");
    expect((await coordinator.get(left.id))!.status).toBe("pending");
    const { rows } = await pglite.db().query<{ status: string }>("select status from orpc_agent_approvals where id = $1", [left.id]);
    expect(rows[0]!.status).toBe("pending");
  });
});

describe("createPgApprovalCoordinator: statuses the application writes", () => {
  it("reports a cancelled record as cancelled; it can be neither decided nor consumed", async () => {
    const coordinator = createPgApprovalCoordinator({ query });
    const request = makeApprovalRequest(new Date());
    await coordinator.create(request);
    // The application's own withdrawal, in the same compare-and-set shape (docs/architecture/spec/postgres.md#postgres-5-5).
    await pglite.db().query("update orpc_agent_approvals set status = 'cancelled' where id = $1 and status = 'pending'", [request.id]);

    expect((await coordinator.get(request.id))!.status).toBe("cancelled");
    expect((await coordinator.list({ status: "cancelled" })).map((r) => r.id)).toEqual([request.id]);
    await expect(coordinator.decide(request.id, { status: "approved", approver: MANAGER })).rejects.toMatchObject({
      code: "APPROVAL_ALREADY_DECIDED",
      cause: new Error(`Approval "${request.id}" is not pending (status: cancelled)`),
    });
    await expect(coordinator.markConsumed(request.id, "exe_1")).rejects.toThrow(/cannot be consumed \(status: cancelled\)/);
  });

  it("lists oldest first by requestedAt, then id", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, now: clock.now });
    const later = makeApprovalRequest(new Date("2030-01-01T00:00:02.000Z"), { id: "apr_a" });
    const earliest = makeApprovalRequest(new Date("2030-01-01T00:00:00.000Z"), { id: "apr_z" });
    const tieB = makeApprovalRequest(new Date("2030-01-01T00:00:01.000Z"), { id: "apr_m2" });
    const tieA = makeApprovalRequest(new Date("2030-01-01T00:00:01.000Z"), { id: "apr_m1" });
    for (const request of [later, earliest, tieB, tieA]) await coordinator.create(request);
    expect((await coordinator.list()).map((r) => r.id)).toEqual(["apr_z", "apr_m1", "apr_m2", "apr_a"]);
  });
});
