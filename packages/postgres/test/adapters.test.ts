import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApprovalRequest } from "../../../test-fixtures/approval-coordinator-contract.js";
import { createPgApprovalCoordinator, createPgAuditSink, type PgQuery } from "../src/index.js";
import { auditEvent } from "./support/audit-events.js";
import { createPglite } from "./support/pglite.js";
import {
  applyApprovalsDdl,
  applyAuditDdl,
  createTestPool,
  createTestSchema,
  dropTestSchema,
  REAL_SERVER,
  TEST_DATABASE_URL,
} from "./support/real-server.js";

// The one-line adapters the README documents (docs/architecture/spec/postgres.md#postgres-3-5), each driving a coordinator
// and a sink through a full write and read.
async function exercise(query: PgQuery, tables: { approvals: string; audit: string }) {
  const coordinator = createPgApprovalCoordinator({ query, table: tables.approvals });
  const request = makeApprovalRequest(new Date(), { id: `apr_adapter_${crypto.randomUUID()}`, input: ["a", 1, null] });
  await coordinator.create(request);
  const decided = await coordinator.decide(request.id, { status: "approved", approver: { id: "user_m", kind: "user" } });
  expect(decided.status).toBe("approved");
  expect((await coordinator.markConsumed(request.id, "exe_adapter")).consumedByExecutionId).toBe("exe_adapter");
  expect((await coordinator.get(request.id))!.input).toEqual(["a", 1, null]);

  const sink = createPgAuditSink({ query, table: tables.audit });
  await sink(auditEvent({ executionId: request.id }));
  const { rows } = await query(`select count(*)::int as n from ${tables.audit} where execution_id = $1`, [request.id]);
  expect(rows[0]!.n).toBe(1);
}

describe("the PGlite adapter", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    await applyApprovalsDdl((sql) => db.exec(sql), "approvals");
    await applyAuditDdl((sql) => db.exec(sql), "audit_events");
  });
  afterAll(async () => {
    await db?.close();
  });

  it("(sql, params) => db.query(sql, params) is a PgQuery that runs both stores", async () => {
    const query: PgQuery = (sql, params) => db.query(sql, params);
    await exercise(query, { approvals: "approvals", audit: "audit_events" });
  });
});

describe(`the node-postgres adapters on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  const tables = () => ({ approvals: `${schema}.approvals`, audit: `${schema}.audit_events` });
  beforeAll(async () => {
    pool = createTestPool({ max: 3 });
    schema = await createTestSchema(pool, "adapters");
    await applyApprovalsDdl((sql) => pool.query(sql), tables().approvals);
    await applyAuditDdl((sql) => pool.query(sql), tables().audit);
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  it("(sql, params) => pool.query(sql, params) over a pg.Pool is a PgQuery that runs both stores", async () => {
    const query: PgQuery = (sql, params) => pool.query(sql, params);
    await exercise(query, tables());
  });

  it("(sql, params) => client.query(sql, params) over a single pg.Client is a PgQuery that runs both stores", async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const query: PgQuery = (sql, params) => client.query(sql, params);
      await exercise(query, tables());
    } finally {
      await client.end();
    }
  });
});
