// MCP over loopback HTTP at 100 concurrent 2025-era clients (issue 49): requests per second of our governed v2
// endpoint without audit, with strict PostgreSQL audit (the default sink: every event written through by group
// commit), and with strict audit on the batched sink, against a hand-written MCP SDK v2 server serving the same
// 100 tools. The clients run in a child process (mcp-load.ts); subjects alternate within each round, medians over
// rounds. The audited subjects also report their PostgreSQL round trips per call, counted at the `PgQuery` seam.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { toNodeHandler as sdkToNodeHandler } from "@modelcontextprotocol/node";
import { createAgentRuntime, type AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { toNodeRequestListener } from "@orpc-agent/mcp/node";
import { createPgAuditSink, type PgAuditSink } from "@orpc-agent/postgres";
import { countingQuery, type CountingQuery } from "./counting-query.js";
import { median } from "./harness.js";
import type { LoadCommand, LoadReply } from "./mcp-load.js";
import { benchGovernance, closeListening, handWrittenMcpHandler, listen, toolSchemas } from "./mcp-v2-servers.js";
import { backendCpu, cpuSpent } from "./pg-backend-cpu.js";
import type { BenchSchema } from "./pg-database.js";

export type McpThroughput = {
  /** Requests per second, median over rounds. */
  perSec: Record<Subject, number>;
  /** Each subject over the governed endpoint without audit, median of the per-round ratios (and their range). */
  overNoAudit: Record<Subject, { median: number; min: number; max: number }>;
  /** PostgreSQL statements per call of the audited subjects, median over rounds. */
  statementsPerCall: { strict: number; batched: number };
  /** CPU microseconds per call of this process (the servers; the clients run elsewhere), median over rounds. */
  serverCpuUs: Record<Subject, number>;
  /** CPU microseconds per call of the audit pool's PostgreSQL backends, where /proc shows them. */
  pgCpuUs: { strict?: number; batched?: number };
};
export type Subject = "noAudit" | "strict" | "batched" | "handWritten";

type Governed = { runtime: AgentRuntime; sink?: PgAuditSink; counted?: CountingQuery; applicationName?: string };

function loadProcess(): { child: ChildProcess; send(command: LoadCommand): Promise<LoadReply> } {
  // Same Node, same loader flags (tsx), same environment: the child resolves modules as this process does.
  const child = fork(fileURLToPath(new URL("./mcp-load.ts", import.meta.url)), { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let waiting: ((reply: LoadReply) => void) | undefined;
  child.on("message", (reply: LoadReply) => waiting?.(reply));
  child.on("exit", (code) => {
    if (code !== 0 && code !== null) {
      console.error(`bench: the MCP load process exited with ${code}`);
      process.exit(1);
    }
  });
  return {
    child,
    send: (command) =>
      new Promise<LoadReply>((resolve) => {
        waiting = resolve;
        child.send(command);
      }),
  };
}

export async function mcpThroughput(db: BenchSchema, options: { rounds: number; calls: number; clients: number }): Promise<McpThroughput> {
  const schemas = toolSchemas();
  const governance = benchGovernance(schemas);
  const identity = { allowUnauthenticated: true, createContext: () => ({ actor: { id: "bench", kind: "service" as const }, context: {} }) } as const;
  const audited = (batched: boolean): Governed => {
    const applicationName = `orpc_bench_${batched ? "batched" : "strict"}_${process.pid}`;
    const counted = countingQuery(db.queryOf(db.pool(applicationName)));
    const sink = createPgAuditSink(batched ? { query: counted.query, batch: { size: 50, flushMs: 250 } } : { query: counted.query });
    return { runtime: createAgentRuntime({ governance, audit: { sinks: [sink], strict: true } }), sink, counted, applicationName };
  };
  const inspect = db.queryOf(db.pool());
  const governed: Record<Exclude<Subject, "handWritten">, Governed> = {
    noAudit: { runtime: createAgentRuntime({ governance }) },
    strict: audited(false),
    batched: audited(true),
  };
  const handlers = Object.fromEntries(Object.entries(governed).map(([name, g]) => [name, createMCPHandler(g.runtime, identity)]));
  const hand = handWrittenMcpHandler(schemas);
  const servers = {
    ...Object.fromEntries(await Promise.all(Object.entries(handlers).map(async ([name, handler]) => [name, await listen(toNodeRequestListener(handler))] as const))),
    handWritten: await listen(sdkToNodeHandler(hand)),
  } as Record<Subject, Awaited<ReturnType<typeof listen>>>;
  const subjects = Object.keys(servers) as Subject[];
  const load = loadProcess();
  const samples: Record<Subject, number[]> = { noAudit: [], strict: [], batched: [], handWritten: [] };
  const statements: Record<"strict" | "batched", number[]> = { strict: [], batched: [] };
  const serverCpu: Record<Subject, number[]> = { noAudit: [], strict: [], batched: [], handWritten: [] };
  const pgCpu: Record<"strict" | "batched", number[]> = { strict: [], batched: [] };

  const runOnce = async (subject: Subject, calls: number) => {
    const g = subject === "handWritten" ? undefined : governed[subject];
    const before = g?.counted?.count ?? 0;
    const backendsBefore = g?.applicationName === undefined ? undefined : await backendCpu(inspect, g.applicationName);
    const cpuBefore = process.cpuUsage();
    const reply = await load.send({ type: "run", subject, calls });
    if (reply.type !== "done") throw new Error("bench: the MCP load process answered out of turn");
    if (reply.failures > 0) throw new Error(`bench: ${reply.failures} of ${calls} MCP calls to ${subject} failed: ${reply.firstFailure}`);
    // Every event of the run is written before the next subject is measured; its CPU counts for this run.
    if (g?.sink) {
      await g.runtime.drainAudit();
      await g.sink.flush();
    }
    const cpu = process.cpuUsage(cpuBefore);
    const backends = g?.applicationName === undefined ? undefined : cpuSpent(backendsBefore, await backendCpu(inspect, g.applicationName));
    return {
      perSec: calls / (reply.ns / 1e9),
      statements: g?.counted === undefined ? 0 : (g.counted.count - before) / calls,
      serverCpuUs: (cpu.user + cpu.system) / calls,
      pgCpuUs: backends === undefined ? undefined : (backends * 1000) / calls,
    };
  };

  try {
    const ready = await load.send({ type: "connect", subjects: Object.fromEntries(subjects.map((s) => [s, servers[s].url.href])), clients: options.clients });
    if (ready.type !== "ready") throw new Error("bench: the MCP load process did not connect");
    for (const subject of subjects) await runOnce(subject, Math.max(options.clients * 2, Math.round(options.calls / 4))); // warm-up
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? subjects : [...subjects].reverse();
      for (const subject of order) {
        const measured = await runOnce(subject, options.calls);
        samples[subject].push(measured.perSec);
        serverCpu[subject].push(measured.serverCpuUs);
        if (subject === "strict" || subject === "batched") {
          statements[subject].push(measured.statements);
          if (measured.pgCpuUs !== undefined) pgCpu[subject].push(measured.pgCpuUs);
        }
      }
    }
  } finally {
    await load.send({ type: "close" }).catch(() => {});
    for (const handler of Object.values(handlers)) await handler.close();
    await hand.close();
    for (const { server } of Object.values(servers)) closeListening(server);
    for (const g of Object.values(governed)) await g.sink?.close();
  }
  // Per-round ratios: both sides of a ratio ran minutes apart at most, so a machine that gets busier or quieter
  // during the bench moves both.
  const ratio = (s: Subject) => {
    const perRound = samples[s].map((value, round) => value / samples.noAudit[round]!);
    return { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound) };
  };
  return {
    perSec: Object.fromEntries(subjects.map((s) => [s, median(samples[s])])) as Record<Subject, number>,
    overNoAudit: Object.fromEntries(subjects.map((s) => [s, ratio(s)])) as McpThroughput["overNoAudit"],
    statementsPerCall: { strict: median(statements.strict), batched: median(statements.batched) },
    serverCpuUs: Object.fromEntries(subjects.map((s) => [s, median(serverCpu[s])])) as Record<Subject, number>,
    pgCpuUs: {
      ...(pgCpu.strict.length === 0 ? {} : { strict: median(pgCpu.strict) }),
      ...(pgCpu.batched.length === 0 ? {} : { batched: median(pgCpu.batched) }),
    },
  };
}
