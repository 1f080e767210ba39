// The real server named by TEST_DATABASE_URL (docs/architecture/spec/postgres.md#postgres-9-2). Each test file works in its
// own schema or table, so files running in parallel against one server never meet.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { approvalsDdl, auditDdl } from "../../src/ddl.js";
import type { PgQuery } from "../../src/index.js";

/** Set by the caller, or by the test run's own server (tests/global-setup/postgres.ts): these tests never skip. */
export const TEST_DATABASE_URL: string = requireUrl();

/** The describe title of real-server blocks. */
export const REAL_SERVER = "real PostgreSQL server (TEST_DATABASE_URL)";

function requireUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined) throw new Error("TEST_DATABASE_URL is not set: run the tests through the root Vitest config, whose global setup starts a server");
  return url;
}

export function createTestPool(options: { max?: number; searchPath?: string } = {}): pg.Pool {
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

/** A schema of one test file on the real server, with a pool that works in it. */
export type PgSchema = {
  /** The schema's name, for qualified table names. */
  readonly name: string;
  /** The pool, its search_path the schema; open from the block's beforeAll to its afterAll. */
  pool(): pg.Pool;
  /** A `PgQuery` over `pool()`. */
  query: PgQuery;
};

/**
 * Registers on the enclosing block (or file) a schema of its own: created empty before its tests with `ddl` applied
 * in order, dropped after. `ddl` may depend on the schema's name, for qualified table names; unqualified ones (the
 * DDL constants' defaults) land in the schema through the pool's search_path.
 */
export function usePgSchema(label: string, ddl: readonly string[] | ((schema: string) => readonly string[]), options: { max?: number } = {}): PgSchema {
  const name = testSchemaName(label);
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    pool = createTestPool({ max: options.max ?? 10, searchPath: name });
    await createTestSchema(pool, label);
    for (const statement of typeof ddl === "function" ? ddl(name) : ddl) await pool.query(statement);
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await dropTestSchema(pool, name);
    await pool.end();
  });
  return { name, pool: () => pool!, query: (sql, params) => pool!.query(sql, params) };
}
