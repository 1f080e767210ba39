// Throughput of the Postgres audit sink (docs/architecture/spec/postgres.md#postgres-7): batched (`{ size: 50, flushMs: 250 }`, then flush())
// against the default mode, every event written through by group commit (no batch option: one INSERT in flight,
// the events that arrive meanwhile in the next, ≤ 500 rows). Both modes get the same load: every event is handed to
// the sink at once, as a non-strict runtime does, then the sink is flushed and every event's promise awaited.
// Reported, not budgeted.
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { AgentAuditEvent } from "@orpc-agent/core";
import { AUDIT_DDL, createPgAuditSink, type PgQuery } from "@orpc-agent/postgres";
import { interleave } from "./harness.js";

export type PgSinkBenchRow = { path: string; subjectPerSec: number; baselinePerSec: number; ratio: number };

const DEFAULT_TABLE = "orpc_agent_audit_events";

/** A payload-free completion event, like the runtime emits after every invoke (not `capability.started`, which always writes through). */
function makeEvents(count: number): AgentAuditEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    type: "capability.completed" as const,
    timestamp: new Date(),
    surface: "direct" as const,
    actor: { id: "bench", kind: "service" as const },
    executionId: `exec-${i}`,
    capabilityId: "g0.c0",
    data: { durationMs: 1, attempts: 1 },
  }));
}

/** Events per second through one fresh sink. */
async function throughput(query: PgQuery, table: string, events: AgentAuditEvent[], batched: boolean): Promise<number> {
  const sink = createPgAuditSink(batched ? { query, table, batch: { size: 50, flushMs: 250 } } : { query, table });
  const start = process.hrtime.bigint();
  const pending = events.map((event) => sink(event));
  await sink.flush();
  await Promise.all(pending);
  const ns = Number(process.hrtime.bigint() - start);
  return events.length / (ns / 1e9);
}

async function measure(label: string, query: PgQuery, table: string, options: { rounds: number; events: number }): Promise<PgSinkBenchRow> {
  const events = makeEvents(options.events);
  await throughput(query, table, events.slice(0, 100), true); // warm-up: plan caches, JIT
  await throughput(query, table, events.slice(0, 100), false);
  const m = await interleave(
    {
      batched: () => throughput(query, table, events, true),
      single: () => throughput(query, table, events, false),
    },
    options.rounds,
  );
  return { path: `pg audit sink, batched vs written through, ${label}`, subjectPerSec: m.batched!, baselinePerSec: m.single!, ratio: m.batched! / m.single! };
}

export async function pgSinkCost(options: { rounds: number; events: number }): Promise<PgSinkBenchRow[]> {
  const rows: PgSinkBenchRow[] = [];
  const db = new PGlite();
  try {
    await db.exec(AUDIT_DDL);
    rows.push(await measure("PGlite", (sql, params) => db.query(sql, params), DEFAULT_TABLE, options));
  } finally {
    await db.close();
  }

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // Own table per run, dropped afterwards, so concurrent runs and the test suite never collide.
    const table = `bench_audit_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const pool = new pg.Pool({ connectionString: url });
    try {
      await pool.query(AUDIT_DDL.replaceAll(DEFAULT_TABLE, table));
      rows.push(await measure("Postgres", (sql, params) => pool.query(sql, params), table, options));
    } finally {
      await pool.query(`drop table if exists ${table}`).catch(() => {});
      await pool.end();
    }
  }
  return rows;
}
