import type { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentAuditEvent } from "@orpc-agent/core";
import { AUDIT_DDL, createPgAuditSink, type PgQuery } from "../../src/index.js";
import { auditEvent, rowsOf, settlement, startedEvent } from "../support/audit-events.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";
import { logAuditInserts } from "../support/statement-log.js";
import { strictAuditedApp } from "../support/strict-audited-app.js";

// The sink's write-through path goes through group commit (docs/architecture/spec/postgres.md#postgres-7-1): every event
// without `batch`, and `capability.started` (and every event after close()) with it.
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

const turn = () => new Promise((resolve) => setImmediate(resolve));
const count = async () => (await db.query<{ n: number }>("select count(*)::int as n from orpc_agent_audit_events")).rows[0]!.n;

/** The PGlite seam with every statement held until the test lets it through. */
function heldQuery() {
  const sizes: number[] = [];
  const held: (() => void)[] = [];
  const seam: PgQuery = async (sql, params) => {
    sizes.push(rowsOf(sql));
    await new Promise<void>((resolve) => held.push(resolve));
    return query(sql, params);
  };
  const releaseOne = async () => {
    held.shift()!();
    await turn();
  };
  return { seam, sizes, releaseOne, waiting: () => held.length };
}

describe("createPgAuditSink: group commit on the write-through path", () => {
  it("without batch, events handed in during one turn share one INSERT, and events arriving while it is in flight share the next", async () => {
    const db = heldQuery();
    const sink = createPgAuditSink({ query: db.seam });
    const first = [sink(auditEvent()), sink(startedEvent()), sink(auditEvent())].map((p) => settlement(p as Promise<void>));
    await turn();
    const second = [sink(auditEvent()), sink(auditEvent())].map((p) => settlement(p as Promise<void>));
    await turn();
    expect(db.sizes).toEqual([3]);
    await db.releaseOne();
    expect(first.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect(second.map((s) => s.status)).toEqual(["pending", "pending"]);
    expect(db.sizes).toEqual([3, 2]);
    await db.releaseOne();
    expect(second.map((s) => s.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(await count()).toBe(5);
  });

  it("with batch, the started events of several calls share one written-through INSERT while the other events stay buffered", async () => {
    const log = logAuditInserts(query);
    const sink = createPgAuditSink({ query: log.query, batch: { size: 50, flushMs: 60_000 } });
    const buffered = settlement(sink(auditEvent({ type: "capability.requested", data: {} } as Partial<AgentAuditEvent>)) as Promise<void>);
    await Promise.all([sink(startedEvent("exe_a")), sink(startedEvent("exe_b")), sink(startedEvent("exe_c"))]);
    expect(log.inserts.map((insert) => insert.rows.map((row) => row.executionId))).toEqual([["exe_a", "exe_b", "exe_c"]]);
    expect(buffered.status).toBe("pending");
    await sink.close();
    expect(buffered.status).toBe("fulfilled");
  });

  it("never carries more than 500 rows in one statement: 1 200 events in one turn go as 500, 500 and 200", async () => {
    const log = logAuditInserts(query);
    const sink = createPgAuditSink({ query: log.query });
    await Promise.all(Array.from({ length: 1200 }, () => sink(auditEvent())));
    expect(log.inserts.map((insert) => insert.rows.length)).toEqual([500, 500, 200]);
    expect(await count()).toBe(1200);
  });

  it("flush() and close() wait for every event already written through; after close() events still write through", async () => {
    const db = heldQuery();
    const sink = createPgAuditSink({ query: db.seam, batch: { size: 50, flushMs: 60_000 } });
    const started = settlement(sink(startedEvent("exe_held")) as Promise<void>);
    await turn();
    const flushed = settlement(sink.flush());
    const closed = settlement(sink.close());
    await turn();
    expect([started.status, flushed.status, closed.status]).toEqual(["pending", "pending", "pending"]);
    await db.releaseOne();
    await turn();
    expect([started.status, flushed.status, closed.status]).toEqual(["fulfilled", "fulfilled", "fulfilled"]);

    // After close(), a terminal event is written through, not buffered, and close() again waits for it.
    const late = settlement(sink(auditEvent()) as Promise<void>);
    await turn();
    const closedAgain = settlement(sink.close());
    await turn();
    expect([late.status, closedAgain.status]).toEqual(["pending", "pending"]);
    await db.releaseOne();
    await turn();
    expect([late.status, closedAgain.status]).toEqual(["fulfilled", "fulfilled"]);
    expect(db.sizes).toEqual([1, 1]);
  });

  it("a test that fakes timers does not stall written-through events: strict calls still complete", async () => {
    vi.useFakeTimers();
    const app = strictAuditedApp({ query, table: "orpc_agent_audit_events" });
    const result = await app.call();
    expect(result.status).toBe("completed");
    await app.runtime.drainAudit();
    expect(await count()).toBe(3);
  });

  it("strict audit at 100 concurrent callers costs at most one statement per call, and drainAudit leaves nothing unwritten", async () => {
    const log = logAuditInserts(query);
    const app = strictAuditedApp({ query: log.query, table: "orpc_agent_audit_events" });
    const results = await Promise.all(Array.from({ length: 100 }, () => app.call()));
    await app.runtime.drainAudit();
    expect(results.every((result) => result.status === "completed")).toBe(true);
    expect(log.inserts.length).toBeLessThanOrEqual(100);
    // requested, started and completed of every call are stored once drainAudit resolves.
    expect(await count()).toBe(300);
    await app.sink.close();
  });
});
