// A private schema holding the approvals table on the real server, for one test file: created before its tests,
// dropped after. `query` fits createPgApprovalCoordinator; `pool()` is for the SQL an attack runs on the table.
import { APPROVALS_DDL, type PgQuery } from "@orpc-agent/postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

export const APPROVALS_TABLE = "orpc_agent_approvals";

export function useApprovalsSchema(prefix: string): { pool(): pg.Pool; query: PgQuery } {
  const schema = `${prefix}_${process.pid}`;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
    pool.on("error", () => {});
    await pool.query(`drop schema if exists ${schema} cascade`);
    await pool.query(`create schema ${schema}`);
    await pool.query(APPROVALS_DDL);
  });
  afterAll(async () => {
    await pool!.query(`drop schema if exists ${schema} cascade`);
    await pool!.end();
  });
  return { pool: () => pool!, query: (sql, params) => pool!.query(sql, params as unknown[]) };
}
