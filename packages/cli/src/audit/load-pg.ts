import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export type PgLikeClient = {
  connect(): Promise<unknown>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
};
type PgModule = { Client: new (options: { connectionString: string }) => PgLikeClient };

/**
 * The application's own `pg` (resolved from --cwd), else one the CLI can resolve. The CLI has no dependencies
 * (docs/architecture/spec/cli.md#cli-3): reading a database by URL borrows the driver the app already has.
 */
export async function loadPg(cwd: string): Promise<PgModule | undefined> {
  for (const base of [join(cwd, "package.json"), import.meta.url]) {
    try {
      const resolved = createRequire(base).resolve("pg");
      const mod = (await import(pathToFileURL(resolved).href)) as { default?: PgModule } & Partial<PgModule>;
      const pg = (mod.default ?? mod) as PgModule;
      if (typeof pg.Client === "function") return pg;
    } catch {
      // Try the next base.
    }
  }
  return undefined;
}
