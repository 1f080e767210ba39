// The real server named by TEST_DATABASE_URL (postgres.md §9.2). Each test file works in its
// own schema or table, so files running in parallel against one server never meet.
import pg from "pg";
import { approvalsDdl, auditDdl } from "../../src/ddl.js";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** Without the variable a laptop skips the real-server tests; CI never does (postgres.md §9.2). */
export const skipRealServer = TEST_DATABASE_URL === undefined && process.env.CI !== "true";

/** The describe title of real-server blocks; says why when they are skipped. */
export const REAL_SERVER = skipRealServer
  ? "real PostgreSQL server — SKIPPED: TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)"
  : "real PostgreSQL server (TEST_DATABASE_URL)";

if (skipRealServer) {
  console.warn("[@orpc-agent/postgres tests] TEST_DATABASE_URL is not set: real-server tests are skipped; the PGlite tests still run.");
}

export function createTestPool(options: { max?: number; searchPath?: string } = {}): pg.Pool {
  if (TEST_DATABASE_URL === undefined) {
    throw new Error("TEST_DATABASE_URL must be set: CI runs the real-server tests (postgres.md §9.2)");
  }
  const pool = new pg.Pool({
    connectionString: TEST_DATABASE_URL,
    max: options.max ?? 10,
    // Test harness only: lets the default table names of the DDL constants live in a private schema.
    ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` }),
  });
  // An idle client whose backend is terminated (server restart, fault tests) must not crash the test process.
  pool.on("error", () => {});
  return pool;
}

/** The schema of this file and process name. */
export function testSchemaName(label: string): string {
  return `orpc_test_${label}_${process.pid}`;
}

/** Creates this file's schema, empty. */
export async function createTestSchema(pool: pg.Pool, label: string): Promise<string> {
  const schema = testSchemaName(label);
  await pool.query(`drop schema if exists ${schema} cascade`);
  await pool.query(`create schema ${schema}`);
  return schema;
}

export async function dropTestSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`drop schema if exists ${schema} cascade`);
}

/** Applies the package DDL for a custom table name, as an application's migration would. */
export async function applyApprovalsDdl(exec: (sql: string) => Promise<unknown>, table: string): Promise<void> {
  await exec(approvalsDdl(table));
}

export async function applyAuditDdl(exec: (sql: string) => Promise<unknown>, table: string): Promise<void> {
  await exec(auditDdl(table));
}
