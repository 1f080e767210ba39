import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalClock, SAMPLE_COMPLETED_OUTCOME, SAMPLE_SUSPENSION } from "../../../../test-fixtures/invocation-journal-contract.js";
import type { InvocationResolution, JournalBeginEntry } from "@orpc-agent/core/server";
import { invocationsDdl } from "../../src/ddl.js";
import { createPgInvocationJournal, INVOCATIONS_DDL, type PgQuery } from "../../src/index.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";

// What the shared contract cannot see: construction guards, statement shape, parameter encoding, the
// clock and the bigint fence (docs/architecture/spec/distributed.md#distributed-5-6; docs/architecture/spec/postgres.md#postgres-1, docs/architecture/spec/postgres.md#postgres-3).
let db: PGlite;
beforeAll(async () => {
  db = await createPglite();
  await db.exec(INVOCATIONS_DDL);
  await db.exec(`create schema app; ${invocationsDdl("app.invocations")}`);
});
afterAll(async () => {
  await db?.close();
});

let sequence = 0;
function setup(start = "2001-02-03T04:05:06.000Z", table?: string) {
  const clock = journalClock(start);
  const calls: { sql: string; params: unknown[] }[] = [];
  const query: PgQuery = (sql, params) => {
    calls.push({ sql, params });
    return pgliteQuery(db)(sql, params);
  };
  const journal = createPgInvocationJournal({ query, now: clock.now, ...(table === undefined ? {} : { table }) });
  const namespace = `unit-${++sequence}`;
  const key = (invocationId = "inv-1") => ({ namespace, invocationId });
  const entry = (over: Partial<JournalBeginEntry> = {}): JournalBeginEntry => ({
    namespace,
    invocationId: "inv-1",
    fingerprint: "fp-1",
    capabilityId: "orders.refund",
    surface: "mcp",
    actor: { id: "u_dana", kind: "user" },
    leaseExpiresAt: new Date(clock.now().getTime() + 30_000),
    ...over,
  });
  const resolution = (kind: InvocationResolution["kind"], note?: string): InvocationResolution => ({
    kind,
    by: { id: "u_ops", kind: "user" },
    at: clock.now(),
    ...(note === undefined ? {} : { note }),
  });
  return { clock, calls, journal, namespace, key, entry, resolution };
}

describe("createPgInvocationJournal: construction", () => {
  it("throws TypeError for a missing query, an invalid table name or a non-function clock, and touches no database", () => {
    const query: PgQuery = () => Promise.reject(new Error("no database at construction"));
    expect(() => createPgInvocationJournal(undefined as never)).toThrow(/query is required/);
    expect(() => createPgInvocationJournal({} as never)).toThrow(/query is required/);
    for (const table of ["x; drop table t", 'a"b', "1abc", "UPPER", "a.b.c", ""]) {
      expect(() => createPgInvocationJournal({ query, table })).toThrow(/Invalid table name/);
    }
    expect(() => createPgInvocationJournal({ query, now: "2030" as never })).toThrow(TypeError);
    const journal = createPgInvocationJournal({ query, table: "app.invocations" });
    expect(journal.durable).toBe(true);
    expect(typeof journal.list).toBe("function");
  });
});

describe("createPgInvocationJournal: statements (postgres.md §1, §3)", () => {
  it("each transition is exactly one statement; none opens a transaction, locks or reads the database clock", async () => {
    const { calls, journal, key, entry, clock, resolution } = setup();
    const count = async (run: () => Promise<unknown>) => {
      const before = calls.length;
      await run();
      return calls.length - before;
    };
    expect(await count(() => journal.begin(entry()))).toBe(1);
    expect(await count(() => journal.renew(key(), 1, new Date(clock.now().getTime() + 30_000)))).toBe(1);
    expect(await count(() => journal.finish(key(), 1, { state: "pending", approvalId: "apr_1", suspension: SAMPLE_SUSPENSION }))).toBe(1);
    expect(await count(() => journal.claimSuspended(key(), "apr_1", new Date(clock.now().getTime() + 30_000)))).toBe(1);
    clock.advance(60_000);
    expect(await count(() => journal.resolve(key(), 2, { state: "pending" }, resolution("not-applied")))).toBe(1);
    expect(await count(() => journal.getByApproval(key().namespace, "apr_1"))).toBe(1);
    expect(await count(() => journal.list({ namespace: key().namespace, state: "unknown", limit: 5 }))).toBe(1);
    for (const { sql, params } of calls) {
      expect(sql).not.toMatch(/\bbegin\b|\bcommit\b|for update|now\(\)|current_timestamp|clock_timestamp|transaction_timestamp|localtimestamp/i);
      expect(sql).not.toContain(";");
      expect(sql).not.toMatch(/select \*|returning \*/i);
      for (const param of params) expect(param === null || typeof param === "string" || typeof param === "number").toBe(true);
    }
  });

  it("the journal clock instant is a parameter of every write, and the lease instant is the caller's, verbatim", async () => {
    const { calls, journal, key, entry, clock } = setup();
    const lease = new Date("2001-02-03T04:06:00.123Z");
    await journal.begin(entry({ leaseExpiresAt: lease }));
    expect(calls[0]!.params).toContain(clock.now().toISOString());
    expect(calls[0]!.params).toContain(lease.toISOString());
    clock.advance(7);
    await journal.finish(key(), 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME });
    expect(calls[1]!.params).toContain(clock.now().toISOString());
    expect(await journal.get(key())).toMatchObject({ createdAt: new Date("2001-02-03T04:05:06.000Z"), updatedAt: clock.now() });
  });

  it("driver errors reach the caller unchanged", async () => {
    const failure = new Error("connection reset");
    const journal = createPgInvocationJournal({ query: () => Promise.reject(failure) });
    const throwing = createPgInvocationJournal({
      query: () => {
        throw failure;
      },
    });
    const k = { namespace: "n", invocationId: "i" };
    await expect(journal.get(k)).rejects.toBe(failure);
    await expect(journal.renew(k, 1, new Date())).rejects.toBe(failure);
    await expect(throwing.finish(k, 1, { state: "unknown", reason: "interrupted" })).rejects.toBe(failure);
  });
});

describe("createPgInvocationJournal: clock and mapping", () => {
  it("lapse follows the injected clock only: a 2001 clock far from the database's still claims, lapses and resolves", async () => {
    const { journal, key, entry, clock, resolution } = setup("2001-01-01T00:00:00.000Z");
    const claimed = await journal.begin(entry({ leaseExpiresAt: new Date("2001-01-01T00:00:10.000Z") }));
    expect(claimed).toMatchObject({ kind: "claimed", record: { state: "claimed", leaseExpiresAt: new Date("2001-01-01T00:00:10.000Z") } });
    // Not yet lapsed on the journal clock: resolve refuses even though the database clock is decades later.
    expect(await journal.resolve(key(), 1, { state: "pending" }, resolution("not-applied"))).toBeNull();
    expect((await journal.list({ namespace: key().namespace, state: "claimed" })).map((r) => r.invocationId)).toEqual(["inv-1"]);
    clock.advance(10_000);
    expect(await journal.get(key())).toMatchObject({ state: "unknown", unknownReason: "lease-lapsed" });
    expect(await journal.list({ namespace: key().namespace, state: "claimed" })).toEqual([]);
    expect((await journal.list({ namespace: key().namespace, state: "unknown" })).map((r) => r.invocationId)).toEqual(["inv-1"]);
    // The stored row is untouched by reading: lapse is computed, never written back.
    const { rows } = await db.query<{ state: string }>("select state from orpc_agent_invocations where namespace = $1", [key().namespace]);
    expect(rows).toEqual([{ state: "claimed" }]);
    expect(await journal.resolve(key(), 1, { state: "pending" }, resolution("not-applied"))).toMatchObject({ state: "pending" });
  });

  it("optional fields are absent, not null: no correlation id, approval, outcome, note or unknown reason", async () => {
    const { journal, key, entry, clock, resolution } = setup();
    await journal.begin(entry({ correlationId: undefined }));
    const record = (await journal.get(key()))!;
    for (const field of ["correlationId", "approvalId", "suspension", "outcome", "resolution", "unknownReason"] as const) {
      expect(record).not.toHaveProperty(field);
    }
    await journal.finish(key(), 1, { state: "unknown", reason: "interrupted" });
    clock.advance(1);
    const resolved = (await journal.resolve(key(), 1, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME }, resolution("applied")))!;
    expect(resolved.resolution).toEqual({ kind: "applied", by: { id: "u_ops", kind: "user" }, at: clock.now() });
    expect(resolved).not.toHaveProperty("unknownReason");
    expect(resolved).not.toHaveProperty("leaseExpiresAt");
  });

  it("the bigint fence is read as text: fences past 2^31 round-trip and still fence", async () => {
    const { journal, key, entry, clock } = setup();
    await journal.begin(entry());
    await db.query("update orpc_agent_invocations set fence = 3000000000 where namespace = $1", [key().namespace]);
    expect((await journal.get(key()))!.fence).toBe(3_000_000_000);
    expect(await journal.renew(key(), 2_999_999_999, new Date(clock.now().getTime() + 1_000))).toBe(false);
    expect(await journal.renew(key(), 3_000_000_000, new Date(clock.now().getTime() + 1_000))).toBe(true);
    expect(await journal.finish(key(), 3_000_000_000, { state: "settled", outcome: SAMPLE_COMPLETED_OUTCOME })).toBe(true);
  });

  it("an approval id links one invocation only: suspending a second one on it is rejected by the unique index", async () => {
    const { journal, key, entry } = setup();
    await journal.begin(entry());
    await journal.begin(entry({ invocationId: "inv-2" }));
    expect(await journal.finish(key(), 1, { state: "pending", approvalId: "apr_shared", suspension: SAMPLE_SUSPENSION })).toBe(true);
    await expect(journal.finish(key("inv-2"), 1, { state: "pending", approvalId: "apr_shared", suspension: SAMPLE_SUSPENSION })).rejects.toThrow();
    expect(await journal.getByApproval(key().namespace, "apr_shared")).toMatchObject({ invocationId: "inv-1" });
    expect(await journal.get(key("inv-2"))).toMatchObject({ state: "claimed" });
  });

  it("works on a schema-qualified table and refuses a bad list limit", async () => {
    const { journal, key, entry } = setup(undefined, "app.invocations");
    expect((await journal.begin(entry())).kind).toBe("claimed");
    const { rows } = await db.query<{ n: number }>("select count(*)::int as n from app.invocations where namespace = $1", [key().namespace]);
    expect(rows).toEqual([{ n: 1 }]);
    await expect(journal.list({ namespace: key().namespace, limit: -1 })).rejects.toThrow(TypeError);
    await expect(journal.list({ namespace: key().namespace, limit: 1.5 })).rejects.toThrow(TypeError);
  });
});
