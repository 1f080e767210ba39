import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { APPROVALS_DDL, AUDIT_DDL, type PgQuery } from "@orpc-agent/postgres";

export type Storage = { query: PgQuery; description: string; close(): Promise<void> };

/** Embedded PGlite in a local folder (gitignored `.data/`), so approvals survive a restart with nothing installed. */
export async function openStorage(dataDir = process.env.DATA_DIR ?? ".data/pglite"): Promise<Storage> {
  mkdirSync(dataDir, { recursive: true });
  const db = new PGlite(dataDir);
  await db.exec(APPROVALS_DDL);
  await db.exec(AUDIT_DDL);
  return { query: (sql, params) => db.query(sql, params), description: `PGlite in ${dataDir}`, close: () => db.close() };
}
