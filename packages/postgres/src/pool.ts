import type { PgQuery } from "./query.js";

/** The part of a node-postgres `Pool` the helper uses; any pool with the same shape fits. */
export type PgPoolLike = {
  query(sql: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  on(event: "error", listener: (error: Error) => void): unknown;
  listenerCount(event: "error"): number;
};

export type PgQueryFromPoolOptions = {
  /**
   * Called when PostgreSQL closes an idle pooled connection.
   * @default one `console.error` line
   */
  onIdleError?: (error: Error) => void;
};

const defaultOnIdleError = (error: Error): void => {
  console.error(`[@orpc-agent/postgres] an idle PostgreSQL connection was closed; the pool reconnects on next use: ${error.message}`);
};

/**
 * The `PgQuery` seam over a node-postgres `Pool`, with the pool's `error` listener made impossible to forget:
 * when PostgreSQL terminates an idle pooled connection (restart, failover, `pg_terminate_backend`), a pool with
 * no listener makes Node exit with `Unhandled 'error' event`. A listener is attached only if the pool has none,
 * so one you attached yourself stays the only one.
 *
 * @example
 * import { createPgApprovalCoordinator, pgQueryFromPool } from "@orpc-agent/postgres";
 * import pg from "pg";
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const query = pgQueryFromPool(pool);
 * const coordinator = createPgApprovalCoordinator({ query });
 */
export function pgQueryFromPool(pool: PgPoolLike, options: PgQueryFromPoolOptions = {}): PgQuery {
  if (typeof pool?.query !== "function" || typeof pool.on !== "function" || typeof pool.listenerCount !== "function") {
    throw new TypeError("pgQueryFromPool: pass a node-postgres Pool (query, on, listenerCount)");
  }
  const onIdleError = options.onIdleError ?? defaultOnIdleError;
  if (typeof onIdleError !== "function") throw new TypeError("pgQueryFromPool: onIdleError must be a function");
  if (pool.listenerCount("error") === 0) {
    pool.on("error", (error) => {
      try {
        onIdleError(error);
      } catch {
        // A throwing handler would bring back the crash this listener exists to prevent.
      }
    });
  }
  return (sql, params) => pool.query(sql, params);
}
