/**
 * One SQL statement with positional `$n` parameters, rows back: the same seam as `@orpc-agent/postgres`'s `PgQuery`
 * (declared here structurally, so this package needs neither that package nor a driver). One line adapts a driver:
 * `(sql, params) => pool.query(sql, params)` for node-postgres, `db.query` for PGlite.
 */
export type PgQuery = (sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
