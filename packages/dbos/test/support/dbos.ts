import { DBOS, type DLogger } from "@dbos-inc/dbos-sdk";

// Tests provoke failing workflows on purpose; DBOS logs each one. ORPC_DBOS_TEST_LOGS=1 shows them.
const ignore = () => {};
const quiet: DLogger = { info: ignore, debug: ignore, warn: ignore, error: ignore };

/**
 * `url` with DBOS's default idle-in-transaction timeout (60 s) as a connection startup option. Without it DBOS sets
 * the timeout with a query queued on each new pooled connection ahead of the borrower's, which pg 8 reports as a
 * deprecated concurrent client.query() (a DeprecationWarning per test process); with it DBOS skips that query.
 */
export function withIdleTransactionTimeout(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", "-c idle_in_transaction_session_timeout=60000");
  return parsed.toString();
}

/** Launches DBOS on `url` (system tables in its `dbos` schema); register workflows before calling it. */
export async function launchDbos(url: string, o: { executorID?: string } = {}): Promise<void> {
  DBOS.setConfig({
    name: "orpc-agent-dbos-tests",
    systemDatabaseUrl: withIdleTransactionTimeout(url),
    ...(process.env.ORPC_DBOS_TEST_LOGS === "1" ? { logLevel: "info" } : { logger: quiet }),
    ...(o.executorID === undefined ? {} : { executorID: o.executorID }),
  });
  await DBOS.launch();
}
