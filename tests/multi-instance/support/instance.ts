// One instance of the app, run as its own process by the multi-instance suite (issue 48, item 3). Everything it
// shares with its siblings lives in one PostgreSQL schema: approvals and grants, MCP tasks and 2025-era elicitation
// state, the invocation journal and the audit trail (strict, chained, one chain per process, signed with this
// instance's key). It serves HTTP (instance-http.ts) and prints "ready <port>"; with MI_STDIO=1 it serves MCP on
// stdio instead (instance-stdio.ts) and prints its lines on stderr. It prints "effect <capability> <key>" after
// each execution: the suite waits on these lines, never on time.
// Run with: node --conditions=@orpc-agent/source --import tsx instance.ts (environment: see launcher.ts)
import { readFileSync } from "node:fs";
import pg from "pg";
import { createAgentRuntime, defineGovernance } from "../../../packages/core/src/index.ts";
import { createPgApprovalCoordinator, createPgAuditSink } from "../../../packages/postgres/src/index.ts";
import { SEAL_KEYS } from "./cluster-config.ts";
import { createClusterRegistry } from "./instance-app.ts";
import { serveHttp } from "./instance-http.ts";
import { serveStdio } from "./instance-stdio.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`instance: ${name} is not set`);
  return value;
};
const name = env("MI_INSTANCE");
const schema = env("MI_SCHEMA");
const databaseUrl = env("MI_DATABASE_URL");
const stdio = process.env.MI_STDIO === "1";
/** The suite's lines: stdout, unless stdout carries the MCP messages. */
const say = (line: string) => void (stdio ? process.stderr : process.stdout).write(`${line}\n`);
// Schemas reached by search_path share unqualified table names, hence the default channel: one channel per schema.
const decisionChannel = `${schema}_decided`;

const pool = new pg.Pool({ connectionString: databaseUrl, max: 12, options: `-c search_path=${schema}` });
pool.on("error", () => {});
const query = (sql: string, params?: unknown[]) => pool.query(sql, params);

const sink = createPgAuditSink({ query, checkpoint: { privateKey: readFileSync(env("MI_AUDIT_KEY"), "utf8"), keyId: name, everyEvents: 20 } });
const runtime = createAgentRuntime({
  governance: defineGovernance({ registry: createClusterRegistry({ query, instance: name, say }) }),
  approvals: { coordinator: createPgApprovalCoordinator({ query, decisionChannel }), seal: { keys: SEAL_KEYS }, requesterConfirmable: ["confirmation"] },
  audit: { sinks: [sink], strict: true, chain: true },
  // A call the suite holds open ("hang-") ends by kill -9 or cancel, never by a timeout on a loaded machine.
  defaults: { timeoutMs: 600_000 },
});

/** A graceful stop drains the audit trail and signs the chain's closing checkpoint; kill -9 does neither. */
async function shutdown(closeFront: () => Promise<void>): Promise<void> {
  await closeFront();
  await runtime.drainAudit({ timeoutMs: 20_000 });
  await sink.close();
  await pool.end();
  process.exit(0);
}

if (stdio) {
  const front = serveStdio(runtime as never, { query, databaseUrl, decisionChannel });
  say("ready 0");
  // The client closing stdin ends the session.
  process.stdin.once("end", () => void shutdown(front.close));
} else {
  const front = await serveHttp(runtime as never, { query, databaseUrl, schema, name, publicUrl: new URL(env("MI_PUBLIC_URL")) });
  say(`ready ${front.port}`);
  process.once("SIGTERM", () => void shutdown(front.close));
}
