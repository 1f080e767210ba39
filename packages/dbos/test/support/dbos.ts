import { DBOS, type DLogger } from "@dbos-inc/dbos-sdk";

// Tests provoke failing workflows on purpose; DBOS logs each one. ORPC_DBOS_TEST_LOGS=1 shows them.
const ignore = () => {};
const quiet: DLogger = { info: ignore, debug: ignore, warn: ignore, error: ignore };

/** Launches DBOS on `url` (system tables in its `dbos` schema); register workflows before calling it. */
export async function launchDbos(url: string, o: { executorID?: string } = {}): Promise<void> {
  DBOS.setConfig({
    name: "orpc-agent-dbos-tests",
    systemDatabaseUrl: url,
    ...(process.env.ORPC_DBOS_TEST_LOGS === "1" ? { logLevel: "info" } : { logger: quiet }),
    ...(o.executorID === undefined ? {} : { executorID: o.executorID }),
  });
  await DBOS.launch();
}
