import type pg from "pg";

/**
 * Holds a lock on `table` that INSERTs wait behind, from a connection of the test's own, so a statement of the sink
 * is provably in flight (and provably not committed) for as long as the test needs.
 */
export async function holdTableLock(pool: pg.Pool, table: string): Promise<{ release(): Promise<void> }> {
  const client = await pool.connect();
  // A checked-out client's errors do not reach the pool's listener: the server going away must not crash the worker.
  client.on("error", () => {});
  await client.query("begin");
  await client.query(`lock table ${table} in share mode`);
  return {
    release: async () => {
      try {
        await client.query("commit");
        client.release();
      } catch (error) {
        // The server went away under the lock (restart tests): the connection is gone, not returned.
        client.release(error as Error);
      }
    },
  };
}

/** Waits (bounded) until an INSERT into `table` from a backend not in `seen` waits on a lock; returns its pid. */
export async function blockedInsert(pool: pg.Pool, table: string, seen: number[] = []): Promise<number> {
  for (let i = 0; i < 1000; i++) {
    const { rows } = await pool.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like $1 and not (pid = any($2::int[]))`,
      [`insert into ${table} (%`, seen],
    );
    if (rows.length > 0) return rows[0]!.pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no INSERT into ${table} came to wait on the lock`);
}
