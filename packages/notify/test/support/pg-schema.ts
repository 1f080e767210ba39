// A schema of this test file's own on the real server (TEST_DATABASE_URL, started by the run's global setup when
// unset), so files running in parallel never meet; dropped after.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { PgQuery } from "../../src/index.js";

export type PgSchema = { readonly name: string; query: PgQuery; pool(): pg.Pool };

export function usePgSchema(label: string, ddl: (schema: string) => readonly string[], options: { max?: number } = {}): PgSchema {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined) throw new Error("TEST_DATABASE_URL is not set: run the tests through the root Vitest config, whose global setup starts a server");
  const name = `orpc_test_${label}_${process.pid}`;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
    pool.on("error", () => {});
    await pool.query(`drop schema if exists ${name} cascade`);
    await pool.query(`create schema ${name}`);
    for (const statement of ddl(name)) await pool.query(statement);
  });
  afterAll(async () => {
    if (pool === undefined) return;
    await pool.query(`drop schema if exists ${name} cascade`);
    await pool.end();
  });
  return { name, pool: () => pool!, query: (sql, params) => pool!.query(sql, params) };
}
