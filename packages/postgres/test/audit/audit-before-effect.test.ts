import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditChainDdl } from "../../src/audit/chain-ddl.js";
import type { PgQuery } from "../../src/index.js";
import { applyAuditDdl, createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";
import { logAuditInserts, statementOfStarted } from "../support/statement-log.js";
import { auditBeforeEffectBreaks, strictAuditedApp } from "../support/strict-audited-app.js";

// T12, audit before effect, under group commit (docs/architecture/spec/postgres.md#postgres-7-1): with strict audit on the
// default sink, no handler runs before its own `capability.started` row is committed, at any concurrency, whatever
// fails; and sharing statements keeps a chain's rows in chain order.
describe(`audit before effect (T12) under group commit on a ${REAL_SERVER}`, () => {
  let admin: pg.Pool;
  let pool: pg.Pool;
  let schema: string;
  beforeAll(async () => {
    admin = createTestPool({ max: 4 });
    pool = createTestPool({ max: 10 });
    schema = await createTestSchema(admin, "before_effect");
  });
  afterAll(async () => {
    await dropTestSchema(admin, schema);
    await pool.end();
    await admin.end();
  });

  it("T12: 100 concurrent strict calls, every second statement with started rows failing: each handler finds its own committed started row as it begins, and no call without one runs", async () => {
    const table = `${schema}.concurrent`;
    await applyAuditDdl((sql) => admin.query(sql), table);
    let carriers = 0;
    // Every second INSERT carrying a started row is refused before it reaches the server, as a dropped connection would be.
    const flaky: PgQuery = (sql, params) =>
      params.includes("capability.started") && ++carriers % 2 === 0 ? Promise.reject(new Error("connection lost")) : pool.query(sql, params);
    const log = logAuditInserts(flaky);
    const lookup: PgQuery = (sql, params) => admin.query(sql, params);
    const app = strictAuditedApp({ query: log.query, table, lookup });
    // Four rounds of 100 at once, so statements both fail and succeed under load.
    const results = [];
    for (let round = 0; round < 4; round++) results.push(...(await Promise.all(Array.from({ length: 100 }, () => app.call()))));
    await app.runtime.drainAudit().catch(() => {});
    await app.sink.close();

    expect(await auditBeforeEffectBreaks(app, results, lookup, table)).toEqual([]);
    // Read on another connection as each handler began: its own started row, exactly once, already committed.
    for (const id of app.ran) expect({ id, seen: app.seenByHandler.get(id) }).toEqual({ id, seen: 1 });
    for (const result of results) expect(result.status === "failed").toBe(statementOfStarted(log.inserts, result.executionId)!.outcome === "rejected");
    expect(results.some((result) => result.status === "failed")).toBe(true);
    expect(results.some((result) => result.status === "completed")).toBe(true);
  });

  it("a chain's rows are stored in chain order: group commit writes one statement at a time, rows in arrival order", async () => {
    const table = `${schema}.chained`;
    await applyAuditDdl((sql) => admin.query(sql), table);
    await admin.query(auditChainDdl(table));
    const app = strictAuditedApp({ query: (sql, params) => pool.query(sql, params), table, chain: true });
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 100 }, () => app.call()));
    await app.runtime.drainAudit();
    await app.sink.close();
    const { rows } = await admin.query<{ seq: string }>(`select seq::text as seq from ${table} order by id`);
    expect(rows).toHaveLength(900);
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 900 }, (_, i) => i + 1));
  });
});
