/**
 * The whole driver seam: one statement, positional `$n` parameters, rows back (docs/architecture/spec/postgres.md#postgres-3).
 * The package never imports a driver; the application adapts its own in one line.
 *
 * @example
 * import { PGlite } from "@electric-sql/pglite";
 * import type { PgQuery } from "@orpc-agent/postgres";
 * import pg from "pg";
 * declare const pool: pg.Pool, db: PGlite;
 * const viaPool: PgQuery = (sql, params) => pool.query(sql, params); // node-postgres Pool or Client
 * const viaPglite: PgQuery = (sql, params) => db.query(sql, params); // PGlite
 */
export type PgQuery = (sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export function assertQuery(query: unknown): asserts query is PgQuery {
  if (typeof query !== "function") throw new TypeError("query is required: pass (sql, params) => pool.query(sql, params)");
}

/** Calls the seam so that a synchronous throw also surfaces as a rejection, unchanged (docs/architecture/spec/postgres.md#postgres-3-1). */
export function runQuery(query: PgQuery, sql: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> {
  try {
    return Promise.resolve(query(sql, params));
  } catch (err) {
    return Promise.reject(err);
  }
}
