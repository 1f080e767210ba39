import type { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentAuditEvent } from "@orpc-agent/core";
import { AUDIT_DDL, createPgAuditSink, type PgQuery } from "../../src/index.js";
import { auditEvent, rowsOf, scriptedQuery, settlement, startedEvent } from "../support/audit-events.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";

let db: PGlite;
let query: PgQuery;

beforeAll(async () => {
  db = await createPglite();
  await db.exec(AUDIT_DDL);
  query = pgliteQuery(db);
});
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await db.query("truncate table orpc_agent_audit_events");
});
afterEach(() => {
  vi.useRealTimers();
});

type StoredRow = {
  type: string;
  at_ms: number;
  surface: string;
  actor_id: string;
  actor_kind: string;
  execution_id: string | null;
  capability_id: string | null;
  correlation_id: string | null;
  input_hash: string | null;
  data: string;
};

async function storedRows(): Promise<StoredRow[]> {
  const { rows } = await db.query<StoredRow>(
    `select type, (extract(epoch from at) * 1000)::float8 as at_ms, surface, actor_id, actor_kind, execution_id,
            capability_id, correlation_id, input_hash, data::text as data
       from orpc_agent_audit_events order by at, id`,
  );
  return rows;
}

describe("createPgAuditSink: row mapping", () => {
  it("writes envelope fields to their columns and round-trips data, policyDecisions included", async () => {
    const sink = createPgAuditSink({ query });
    const event = auditEvent({
      type: "capability.denied",
      timestamp: new Date("2030-05-06T07:08:09.123Z"),
      surface: "aiSdk",
      actor: { id: "user_dana", kind: "service" },
      executionId: "exe_42",
      capabilityId: "orders.refund",
      correlationId: "corr_9",
      inputHash: "ab".repeat(32),
      data: {
        reason: "policy-denied",
        publicCode: "POLICY_DENIED",
        policyDecisions: [
          { policy: "business-hours", type: "deny", metadata: { window: [9, 17] } },
          { policy: "tenant", type: "allow" },
        ],
      },
    } as Partial<AgentAuditEvent>);
    await expect(sink(event)).resolves.toBeUndefined();

    const [row] = await storedRows();
    expect(row).toEqual({
      type: "capability.denied",
      at_ms: Date.parse("2030-05-06T07:08:09.123Z"),
      surface: "aiSdk",
      actor_id: "user_dana",
      actor_kind: "service",
      execution_id: "exe_42",
      capability_id: "orders.refund",
      correlation_id: "corr_9",
      input_hash: "ab".repeat(32),
      data: expect.any(String),
    });
    expect(JSON.parse(row!.data)).toStrictEqual(event.data);
  });

  it("stores absent optional envelope fields as NULL", async () => {
    const sink = createPgAuditSink({ query });
    await sink({
      type: "capabilities.discovered",
      timestamp: new Date("2030-01-01T00:00:00.000Z"),
      surface: "mcp",
      actor: { id: "unknown", kind: "anonymous" },
      data: { count: 2, surface: "mcp", digest: "d1" },
    });
    const [row] = await storedRows();
    expect(row).toMatchObject({ execution_id: null, capability_id: null, correlation_id: null, input_hash: null });
    expect(JSON.parse(row!.data)).toEqual({ count: 2, surface: "mcp", digest: "d1" });
  });

  it("reads a Date in data back as its ISO string (postgres.md §6)", async () => {
    const sink = createPgAuditSink({ query });
    await sink(
      auditEvent({
        type: "capability.approval_requested",
        data: { approvalId: "apr_1", reasons: ["r"], types: [], expiresAt: new Date("2030-02-03T04:05:06.789Z") },
      } as Partial<AgentAuditEvent>),
    );
    const [row] = await storedRows();
    expect(JSON.parse(row!.data)).toEqual({ approvalId: "apr_1", reasons: ["r"], types: [], expiresAt: "2030-02-03T04:05:06.789Z" });
  });

  it("without batch, each event is one awaited single-row INSERT, and a driver rejection comes back unchanged", async () => {
    const failure = new Error("disk full");
    const scripted = scriptedQuery((_sql, params) => (params[0] === "capability.failed" ? failure : undefined));
    const sink = createPgAuditSink({ query: scripted.query });
    await sink(auditEvent());
    await sink(auditEvent({ type: "capability.requested", data: {} } as Partial<AgentAuditEvent>));
    await expect(sink(auditEvent({ type: "capability.failed" } as Partial<AgentAuditEvent>))).rejects.toBe(failure);
    expect(scripted.calls).toHaveLength(3);
    for (const call of scripted.calls) {
      expect(rowsOf(call.sql)).toBe(1);
      expect(call.sql).toMatch(/^insert into orpc_agent_audit_events /);
      expect(call.params).toHaveLength(10);
    }
    // flush and close have nothing to do in this mode.
    await expect(sink.flush()).resolves.toBeUndefined();
    await expect(sink.close()).resolves.toBeUndefined();
  });

  it("writes to a custom, schema-qualified table", async () => {
    await db.exec("create schema if not exists evidence");
    await db.exec(AUDIT_DDL.replace(/\borpc_agent_audit_events\b/g, "evidence.events").replace(/evidence\.events_/g, "evidence_events_"));
    const sink = createPgAuditSink({ query, table: "evidence.events" });
    await sink(auditEvent({ executionId: "exe_custom" }));
    const { rows } = await db.query<{ execution_id: string }>("select execution_id from evidence.events");
    expect(rows).toEqual([{ execution_id: "exe_custom" }]);
  });
});

describe("createPgAuditSink: construction", () => {
  it("throws a TypeError for a missing query", () => {
    expect(() => createPgAuditSink({} as never)).toThrow(TypeError);
    expect(() => createPgAuditSink(undefined as never)).toThrow(/query is required/);
  });

  it.each(["x; drop table t", 'a"b', "1abc", "UPPER", "a.b.c", ""])("rejects the table name %j", (table) => {
    expect(() => createPgAuditSink({ query, table })).toThrow(/Invalid table name/);
  });

  it.each([
    { size: 0 },
    { size: 6554 },
    { size: 1.5 },
    { size: -1 },
    { size: Number.NaN },
    { size: "10" },
    { flushMs: -1 },
    { flushMs: Number.POSITIVE_INFINITY },
    { flushMs: Number.NaN },
    { flushMs: "5" },
  ])("rejects batch %j", (batch) => {
    expect(() => createPgAuditSink({ query, batch: batch as never })).toThrow(TypeError);
    expect(() => createPgAuditSink({ query, batch: batch as never })).toThrow(/Invalid batch/);
  });

  it.each([null, 5, "yes", [10]])("rejects a batch that is not an object: %j", (batch) => {
    expect(() => createPgAuditSink({ query, batch: batch as never })).toThrow(/Invalid batch/);
  });

  it("accepts the bounds (size 1 and 6553, flushMs 0) and defaults, touching no database", () => {
    const scripted = scriptedQuery();
    for (const batch of [{}, { size: 1 }, { size: 6553 }, { flushMs: 0 }, { size: 10, flushMs: 1.5 }]) {
      expect(() => createPgAuditSink({ query: scripted.query, batch })).not.toThrow();
    }
    expect(scripted.calls).toEqual([]);
  });
});

describe("createPgAuditSink: batching", () => {
  it("reaching size writes one multi-row INSERT and settles every promise", async () => {
    const calls: string[] = [];
    const recording: PgQuery = (sql, params) => {
      calls.push(sql);
      return query(sql, params);
    };
    const sink = createPgAuditSink({ query: recording, batch: { size: 3, flushMs: 60_000 } });
    const first = settlement(sink(auditEvent()) as Promise<void>);
    const second = settlement(sink(auditEvent()) as Promise<void>);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([first.status, second.status]).toEqual(["pending", "pending"]);
    expect(calls).toEqual([]);

    await sink(auditEvent());
    expect(calls).toHaveLength(1);
    expect(rowsOf(calls[0]!)).toBe(3);
    expect([first.status, second.status]).toEqual(["fulfilled", "fulfilled"]);
    expect(await storedRows()).toHaveLength(3);
  });

  it("writes capability.started through at once while earlier events stay buffered (T12)", async () => {
    const scripted = scriptedQuery();
    const sink = createPgAuditSink({ query: scripted.query, batch: { size: 10, flushMs: 60_000 } });
    const requested = settlement(sink(auditEvent({ type: "capability.requested", data: {} } as Partial<AgentAuditEvent>)) as Promise<void>);
    await sink(startedEvent("exe_now"));
    expect(scripted.calls).toHaveLength(1);
    expect(rowsOf(scripted.calls[0]!.sql)).toBe(1);
    expect(scripted.calls[0]!.params[0]).toBe("capability.started");
    expect(requested.status).toBe("pending");

    await sink.flush();
    expect(requested.status).toBe("fulfilled");
    expect(scripted.calls).toHaveLength(2);
    expect(scripted.calls[1]!.params[0]).toBe("capability.requested");
  });

  it("the flushMs timer writes a partial batch", async () => {
    const scripted = scriptedQuery();
    const sink = createPgAuditSink({ query: scripted.query, batch: { size: 50, flushMs: 15 } });
    await Promise.all([sink(auditEvent()), sink(auditEvent())]);
    expect(scripted.calls).toHaveLength(1);
    expect(rowsOf(scripted.calls[0]!.sql)).toBe(2);
  });

  it("close() flushes the buffer, then every later event is written through individually", async () => {
    const scripted = scriptedQuery();
    const sink = createPgAuditSink({ query: scripted.query, batch: { size: 10, flushMs: 60_000 } });
    const buffered = [settlement(sink(auditEvent()) as Promise<void>), settlement(sink(auditEvent()) as Promise<void>)];
    await sink.close();
    expect(buffered.map((s) => s.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(scripted.calls.map((c) => rowsOf(c.sql))).toEqual([2]);

    await sink(auditEvent());
    await sink(auditEvent({ type: "capability.failed" } as Partial<AgentAuditEvent>));
    expect(scripted.calls.map((c) => rowsOf(c.sql))).toEqual([2, 1, 1]);
    await sink.close();
    expect(scripted.calls).toHaveLength(3);
  });

  it("a failed flush rejects each buffered promise with the write error, and flush() rejects too", async () => {
    const failure = new Error("connection reset");
    const scripted = scriptedQuery(() => failure);
    const sink = createPgAuditSink({ query: scripted.query, batch: { size: 10, flushMs: 60_000 } });
    const events = [auditEvent(), auditEvent(), auditEvent()];
    const outcomes = events.map((event) => settlement(sink(event) as Promise<void>));
    await expect(sink.flush()).rejects.toBe(failure);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const outcome of outcomes) expect(outcome.reason).toBe(failure);
    expect(scripted.calls).toHaveLength(1);
  });

  it("a failed size- or timer-triggered flush leaves no unhandled rejection: only the events' own promises reject", async () => {
    const failure = new Error("timeout");
    const scripted = scriptedQuery(() => failure);
    const sink = createPgAuditSink({ query: scripted.query, batch: { size: 2, flushMs: 5 } });
    const bySize = [sink(auditEvent()), sink(auditEvent())];
    const byTimer = sink(auditEvent());
    const results = await Promise.allSettled([...bySize, byTimer]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(scripted.calls.map((c) => rowsOf(c.sql))).toEqual([2, 1]);
  });

  it("concurrent flushes write disjoint sets, and flush() waits for a batch already in flight", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls: number[] = [];
    const slow: PgQuery = async (sql) => {
      calls.push(rowsOf(sql));
      await gate;
      return { rows: [] };
    };
    const sink = createPgAuditSink({ query: slow, batch: { size: 2, flushMs: 60_000 } });
    const firstBatch = [sink(auditEvent()), sink(auditEvent())]; // size trigger, in flight
    const third = sink(auditEvent());
    const flushes = [settlement(sink.flush()), settlement(sink.flush())];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual([2, 1]);
    expect(flushes.map((f) => f.status)).toEqual(["pending", "pending"]);
    release();
    await Promise.all([...firstBatch, third]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(flushes.map((f) => f.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(calls).toEqual([2, 1]);
  });

  it("with fake timers, every buffered promise settles within flushMs of its enqueue", async () => {
    vi.useFakeTimers();
    const scripted = scriptedQuery();
    const sink = createPgAuditSink({ query: scripted.query, batch: { size: 50, flushMs: 100 } });

    const a = settlement(sink(auditEvent()) as Promise<void>);
    await vi.advanceTimersByTimeAsync(60);
    const b = settlement(sink(auditEvent()) as Promise<void>);
    await vi.advanceTimersByTimeAsync(39);
    expect([a.status, b.status]).toEqual(["pending", "pending"]);
    await vi.advanceTimersByTimeAsync(1);
    expect([a.status, b.status]).toEqual(["fulfilled", "fulfilled"]);

    // A new buffer arms a new timer.
    const c = settlement(sink(auditEvent()) as Promise<void>);
    await vi.advanceTimersByTimeAsync(100);
    expect(c.status).toBe("fulfilled");
    expect(scripted.calls.map((call) => rowsOf(call.sql))).toEqual([2, 1]);
  });

  it("writes a full batch of the largest size in one statement under the bind-parameter limit", async () => {
    const sink = createPgAuditSink({ query, batch: { size: 6553, flushMs: 60_000 } });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 6553; i++) writes.push(sink(auditEvent()) as Promise<void>);
    await Promise.all(writes);
    const { rows } = await db.query<{ n: number }>("select count(*)::int as n from orpc_agent_audit_events");
    expect(rows[0]!.n).toBe(6553);
  });
});
