// `orpc-agent audit verify` (the built CLI, a child process) over the cluster's one audit table: every instance's
// chain, each checked against that instance's public key.
import { runCli, type CliRun } from "../../../packages/cli/test/helpers/run-cli.js";
import type { Cluster } from "./cluster.js";

export function verifyClusterAudit(cluster: Cluster): Promise<CliRun> {
  const keys = cluster.publicKeys.flatMap((key) => ["--public-key", `${key.keyId}=${key.path}`]);
  return runCli(["audit", "verify", "--database-url", process.env.TEST_DATABASE_URL!, "--table", `${cluster.schema}.orpc_agent_audit_events`, ...keys]);
}
