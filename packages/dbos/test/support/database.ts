// The real PostgreSQL server DBOS Transact needs (docs/architecture/spec/distributed.md#distributed-9-1: no PGlite). Every test file, and every
// child process it starts, works in a database of its own, created here and dropped after: DBOS recovers the
// pending workflows of its executor at launch, so two files sharing a system database would steal each other's.
import pg from "pg";

/** Set by the caller, or by the test run's own server (tests/global-setup/postgres.ts): these tests never skip. */
export const TEST_DATABASE_URL: string = requireUrl();

/** The describe title of real-server blocks. */
export const REAL_SERVER = "real PostgreSQL server (TEST_DATABASE_URL)";

function requireUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined) throw new Error("TEST_DATABASE_URL is not set: run the tests through the root Vitest config, whose global setup starts a server");
  return url;
}

export type TestDatabase = {
  /** Connection URL of the new database; DBOS keeps its system tables in its `dbos` schema. */
  url: string;
  /** A pool on it for the test's own tables and checks. */
  pool: pg.Pool;
  /** Ends the pool and drops the database. */
  drop(): Promise<void>;
};

/** Creates `orpc_agent_dbos_<label>_<pid>` on the server of TEST_DATABASE_URL. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `orpc_agent_dbos_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 6 });
  // An idle client losing its connection (the forced drop below) must not become an uncaught exception.
  pool.on("error", () => {});
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
