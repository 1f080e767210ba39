// One private schema per bench run on the bench's PostgreSQL server, with the package's DDL applied as an
// application's migration would; every pool of the run works in it, and it is dropped afterwards.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { APPROVALS_DDL, AUDIT_DDL, type PgQuery } from "@orpc-agent/postgres";

export type BenchSchema = {
  /** A pool of ten connections (node-postgres' default) in the run's schema, its connections named `applicationName`. */
  pool(applicationName?: string): pg.Pool;
  queryOf(pool: pg.Pool): PgQuery;
  /** Empties the audit, approvals and grants tables between measurements. */
  truncate(): Promise<void>;
  drop(): Promise<void>;
};

export async function createBenchSchema(url: string): Promise<BenchSchema> {
  const schema = `orpc_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  admin.on("error", () => {});
  await admin.query(`create schema ${schema}`);
  const pools: pg.Pool[] = [];
  const pool = (applicationName = "orpc_bench") => {
    const created = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}`, application_name: applicationName });
    created.on("error", () => {});
    pools.push(created);
    return created;
  };
  const setup = pool();
  await setup.query(AUDIT_DDL);
  await setup.query(APPROVALS_DDL);
  return {
    pool,
    queryOf: (p) => (sql, params) => p.query(sql, params),
    truncate: async () => void (await setup.query("truncate orpc_agent_audit_events, orpc_agent_approvals, orpc_agent_grants")),
    drop: async () => {
      for (const p of pools) await p.end();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}
