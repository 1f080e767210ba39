import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalsDdl } from "../../src/ddl.js";
import { createPgApprovalCoordinator, type PgQuery } from "../../src/index.js";
import { makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";
import { createTestPool, REAL_SERVER } from "../support/real-server.js";

// A table created by a release before quorums (and before submitted_input): re-applying the current DDL adds the
// columns, keeps every row, and old records read exactly as before (docs/architecture/spec/postgres.md#postgres-4-3).
function legacyDdl(table: string): string {
  return approvalsDdl(table)
    .split("\n")
    .filter((line) => !line.startsWith("alter table") && !line.includes("submitted_input"))
    .join("\n");
}

const legacyInsert = (table: string) => `insert into ${table}
  (id, capability_id, surface, actor, input, input_hash, reasons, types, risk, side_effect, status, requested_at, expires_at, decided_by, decided_at)
values ($1, 'orders.refund', 'direct', '{"id":"user_requester","kind":"user"}', '{"orderId":"ord_1"}', 'abc', '[]', '[]', 'high', 'write',
  $2, '2030-01-01T00:00:00.000Z', '2030-01-01T00:15:00.000Z', $3::jsonb, $4::timestamptz)`;

function migrates(label: string, setup: () => Promise<{ exec: (sql: string) => Promise<unknown>; query: PgQuery; table: string }>) {
  it(`${label}: re-applying the DDL over a pre-quorum table keeps its records and then serves quorum records`, async () => {
    const { exec, query, table } = await setup();
    await exec(legacyDdl(table));
    await query(legacyInsert(table), ["apr_old_pending", "pending", null, null]);
    await query(legacyInsert(table), ["apr_old_approved", "approved", '{"id":"user_manager","kind":"user"}', "2030-01-01T00:01:00.000Z"]);

    await exec(approvalsDdl(table));
    await exec(approvalsDdl(table));
    const now = () => new Date("2030-01-01T00:02:00.000Z");
    const coordinator = createPgApprovalCoordinator({ query, table, now });

    const pending = (await coordinator.get("apr_old_pending"))!;
    expect(pending.status).toBe("pending");
    expect(pending.quorum).toBeUndefined();
    expect(pending.approvals).toBeUndefined();
    const approved = (await coordinator.get("apr_old_approved"))!;
    expect(approved.decision!.approver.id).toBe("user_manager");
    expect(approved.approvals).toBeUndefined();
    // An old single-approver record is decided exactly as before.
    expect((await coordinator.decide("apr_old_pending", { status: "approved", approver: { id: "user_manager", kind: "user" } })).status).toBe("approved");

    const four = makeApprovalRequest(now, { id: `apr_new_${label}`, quorum: 2 });
    await coordinator.create(four);
    expect((await coordinator.decide(four.id, { status: "approved", approver: { id: "user_a", kind: "user" } })).status).toBe("pending");
    expect((await coordinator.decide(four.id, { status: "approved", approver: { id: "user_b", kind: "user" } })).status).toBe("approved");
  });
}

describe("quorum columns migrate a pre-quorum approvals table", () => {
  let db: PGlite;
  let pool: pg.Pool;
  const table = `orpc_agent_approvals_legacy_${process.pid}`;
  beforeAll(async () => {
    db = await createPglite();
    pool = createTestPool({ max: 2 });
    await pool.query(`drop table if exists ${table}`);
  });
  afterAll(async () => {
    await db?.close();
    if (pool === undefined) return;
    await pool.query(`drop table if exists ${table}`);
    await pool.end();
  });

  migrates("PGlite", async () => ({ exec: (sql) => db.exec(sql), query: pgliteQuery(db), table: "legacy_approvals" }));
  migrates(REAL_SERVER, async () => ({ exec: (sql) => pool.query(sql), query: (sql, params) => pool.query(sql, params), table }));
});
