// The SI-13 attacks on the real server: one private schema per test file holding APPROVALS_DDL's tables (approvals and
// grants), pools that play separate app instances, and a gate that holds a grant's row so that every racing use
// really waits on it and then re-checks the committed row, instead of the uses merely overlapping in time.
import { APPROVALS_DDL, type PgQuery } from "@orpc-agent/postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

export const GRANTS_TABLE = "orpc_agent_grants";

export type GrantsSchema = {
  /** A new pool in the schema, closed after the file: one per simulated app instance. */
  instance(max?: number): { pool: pg.Pool; query: PgQuery };
  /** The pool for the SQL an attack runs on the tables. */
  admin(): pg.Pool;
  /**
   * Holds the grant's row locked by a third connection while `start` launches the uses, waits until `waiters` of
   * them are blocked on it, then releases it; resolves to what `start` returned.
   */
  gated<T>(grantId: string, waiters: number, start: () => T): Promise<T>;
};

export function useGrantsSchema(prefix: string): GrantsSchema {
  const schema = `${prefix}_${process.pid}`;
  // Every backend of this file carries it, so the gate counts only this file's waiters.
  const applicationName = schema;
  const pools: pg.Pool[] = [];
  const open = (max: number) => {
    const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max, application_name: applicationName, options: `-c search_path=${schema}` });
    pool.on("error", () => {});
    pools.push(pool);
    return pool;
  };
  let admin: pg.Pool | undefined;
  beforeAll(async () => {
    admin = open(3);
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
    await admin.query(APPROVALS_DDL);
  });
  afterAll(async () => {
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  return {
    instance(max = 10) {
      const pool = open(max);
      return { pool, query: (sql, params) => pool.query(sql, params as unknown[]) };
    },
    admin: () => admin!,
    async gated(grantId, waiters, start) {
      const locker = await admin!.connect();
      try {
        await locker.query("begin");
        await locker.query(`select 1 from ${GRANTS_TABLE} where id = $1 for update`, [grantId]);
        const started = start();
        await waitForLockWaiters(admin!, applicationName, waiters);
        await locker.query("commit");
        return started;
      } catch (error) {
        await locker.query("rollback").catch(() => {});
        throw error;
      } finally {
        locker.release();
      }
    },
  };
}

/** Polls pg_stat_activity until `count` backends of this file wait on a lock; a bounded wait, not a timing assertion. */
async function waitForLockWaiters(pool: pg.Pool, applicationName: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const { rows } = await pool.query(
      "select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
      [applicationName],
    );
    if (rows[0].n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} uses ever waited on the grant's row`);
}
