import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import type { PgQuery } from "../../src/index.js";

/** The one-line PGlite adapter of the README (docs/architecture/spec/postgres.md#postgres-3-5). */
export function pgliteQuery(db: PGlite): PgQuery {
  return (sql, params) => db.query(sql, params);
}

/** An in-process PGlite; its first boot compiles WASM Postgres, so call it from beforeAll. */
export async function createPglite(): Promise<PGlite> {
  const db = new PGlite();
  await db.waitReady;
  return db;
}

/** Registers on the enclosing block (or file) a PGlite with `ddl` applied, opened before its tests and closed after. */
export function usePglite(ddl: string): { db(): PGlite; query: PgQuery } {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = await createPglite();
    await db.exec(ddl);
  });
  afterAll(async () => {
    await db?.close();
  });
  return { db: () => db!, query: (sql, params) => db!.query(sql, params) };
}
