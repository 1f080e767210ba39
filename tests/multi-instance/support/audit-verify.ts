// `orpc-agent audit verify` (the built CLI, a child process) over the cluster's one audit table: every instance's
// chain, each checked against that instance's public key. Also reads which instances signed a chain, so a test can
// tell that the instances it used each left one.
import { runCli, type CliRun } from "../../../packages/cli/test/helpers/run-cli.js";
import type { Cluster } from "./cluster.js";

export type ClusterAudit = { run: CliRun; chains: number; signers: string[] };

export async function verifyClusterAudit(cluster: Cluster): Promise<ClusterAudit> {
  const keys = cluster.publicKeys.flatMap((key) => ["--public-key", `${key.keyId}=${key.path}`]);
  const run = await runCli(["audit", "verify", "--database-url", process.env.TEST_DATABASE_URL!, "--table", `${cluster.schema}.orpc_agent_audit_events`, ...keys]);
  const chains = (await cluster.pool.query<{ n: number }>("select count(distinct chain_id)::int as n from orpc_agent_audit_events")).rows[0]!.n;
  const signers = (await cluster.pool.query<{ key_id: string }>("select distinct key_id from orpc_agent_audit_events_checkpoints order by key_id")).rows.map((row) => row.key_id);
  return { run, chains, signers };
}
