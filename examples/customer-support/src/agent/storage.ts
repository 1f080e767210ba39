import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { APPROVALS_DDL, AUDIT_DDL, pgQueryFromPool, type PgQuery } from "@orpc-agent/postgres";
import pg from "pg";
import { claimEmbeddedFolder } from "./embedded-owner.js";

export type Storage = {
  query: PgQuery;
  /** Where approvals and audit events live, for people reading the demo's output. */
  description: string;
  close(): Promise<void>;
};

/**
 * The embedded default: PGlite in a local folder, so approvals survive restarts with nothing installed.
 * `DATABASE_URL` switches to a real PostgreSQL server; the code above this function does not change. One process
 * owns an embedded folder at a time: a second one is refused with an error saying what to do (embedded-owner.ts).
 */
export async function openStorage(options: { databaseUrl?: string; dataDir?: string } = {}): Promise<Storage> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    // Attaches the pool's "error" listener: a closed idle connection must not exit the demo.
    const query = pgQueryFromPool(pool);
    await query(APPROVALS_DDL, []);
    await query(AUDIT_DDL, []);
    return { query, description: `PostgreSQL at ${new URL(databaseUrl).host}`, close: () => pool.end() };
  }
  const dataDir = options.dataDir ?? ".data/pglite";
  // Before PGlite touches the folder: a second process would open it without complaint and diverge.
  const claim = claimEmbeddedFolder(dataDir);
  try {
    mkdirSync(dataDir, { recursive: true });
    const db = new PGlite(dataDir);
    await db.exec(APPROVALS_DDL);
    await db.exec(AUDIT_DDL);
    const close = async () => {
      try {
        await db.close();
      } finally {
        claim.release();
      }
    };
    return { query: (sql, params) => db.query(sql, params), description: `PGlite in ${dataDir}`, close };
  } catch (error) {
    claim.release();
    throw error;
  }
}
