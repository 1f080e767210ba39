// Load (issue "Reliability under load, faults and hostile input"): the MCP Streamable HTTP endpoint and the remote
// capability router (createCapabilityRouter on oRPC's node RPCHandler, called through createHTTPCapabilityClient)
// under N concurrent clients on loopback. Bounded in requests and seconds; zero errors; p50/p99 latency and
// throughput printed.
import { RPCHandler } from "@orpc/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { createTestRuntime, TERMINAL_EVENTS, type TestRuntime } from "./support/app.js";
import { createAgent, jsonRpcMessages, listen, percentiles, type Listening } from "./support/http.js";
import { openSession, serveMcp, TOKENS } from "./support/mcp.js";

const CLIENTS = 16;
const REQUESTS_PER_CLIENT = 250;
const MAX_SECONDS = 30;

type Run = { latencies: number[]; errors: string[]; seconds: number };

/** Runs `CLIENTS` loops of sequential requests, each loop stopping at its count or at the shared deadline. */
async function drive(request: (client: number, i: number) => Promise<string | undefined>, setup?: (client: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  const errors: string[] = [];
  if (setup) await Promise.all(Array.from({ length: CLIENTS }, (_, c) => setup(c)));
  const started = performance.now();
  const deadline = started + MAX_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < REQUESTS_PER_CLIENT && performance.now() < deadline; i++) {
        const t = performance.now();
        let problem: string | undefined;
        try {
          problem = await request(client, i);
        } catch (error) {
          problem = `threw ${String(error)}`;
        }
        latencies.push(performance.now() - t);
        if (problem !== undefined) errors.push(problem);
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

function report(name: string, run: Run): void {
  const { p50, p99, max } = percentiles(run.latencies);
  console.log(
    `[reliability] load ${name}: ${CLIENTS} clients, ${run.latencies.length} requests in ${run.seconds.toFixed(2)} s = ${Math.round(run.latencies.length / run.seconds)} req/s; ` +
      `latency p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${max.toFixed(1)} ms; errors ${run.errors.length}`,
  );
}

function expectTerminalEvidence(app: TestRuntime, executions: number): void {
  const terminal = app.events.filter((e) => TERMINAL_EVENTS.has(e.type));
  expect(new Set(terminal.map((e) => e.executionId)).size).toBe(terminal.length);
  expect(terminal.length).toBe(executions);
}

describe("MCP Streamable HTTP endpoint under load", () => {
  let app: TestRuntime;
  let server: Listening;
  const agent = createAgent(CLIENTS);

  beforeAll(async () => {
    app = createTestRuntime();
    server = await serveMcp(app.runtime);
  });
  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  it(`${CLIENTS} concurrent MCP sessions, ${REQUESTS_PER_CLIENT} requests each (1 in 10 a tools/list): zero errors`, async () => {
    const sessions: Awaited<ReturnType<typeof openSession>>[] = [];
    let calls = 0;
    const run = await drive(
      async (client, i) => {
        const session = sessions[client]!;
        const id = i + 1;
        if (i % 10 === 0) {
          const response = await session.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }));
          const [message] = jsonRpcMessages(response) as { result?: { tools: unknown[] } }[];
          return response.status === 200 && (message?.result?.tools.length ?? 0) > 5 ? undefined : `tools/list answered ${response.status}`;
        }
        calls++;
        const response = await session.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "notes_count", arguments: { n: id } } }));
        const [message] = jsonRpcMessages(response) as { result?: { structuredContent?: { status: string; data?: { counted: number } } } }[];
        const envelope = message?.result?.structuredContent;
        return response.status === 200 && envelope?.status === "ok" && envelope.data?.counted === id ? undefined : `tools/call answered ${response.status} ${JSON.stringify(envelope)}`;
      },
      async (client) => {
        sessions[client] = await openSession(server.port, agent, Object.keys(TOKENS)[client % 2]);
      },
    );
    report("MCP HTTP (stateful sessions)", run);
    expect(run.errors.slice(0, 5)).toEqual([]);
    expect(run.latencies.length).toBeGreaterThanOrEqual(CLIENTS * 50);
    expectTerminalEvidence(app, calls);
  });
});

describe("remote capability router under load", () => {
  let app: TestRuntime;
  let server: Listening;
  let journal: ReturnType<typeof createInMemoryInvocationJournal>;

  beforeAll(async () => {
    app = createTestRuntime();
    journal = createInMemoryInvocationJournal();
    const service = createInvocationService({ journal, namespace: "reliability", revision: "r1" });
    // The router warns once that an in-memory journal is not durable; that is this test's choice.
    const warn = console.warn;
    console.warn = () => {};
    const agentRouter = createCapabilityRouter<{ authorization?: string }, Record<string, unknown>>({
      service,
      runtime: () => app.runtime,
      surface: "aiSdk",
      resolve: async ({ context }) => {
        const actor = TOKENS[context.authorization?.replace(/^Bearer /, "") ?? ""];
        return actor ? { actor, context: {} } : null;
      },
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    });
    console.warn = warn;
    const handler = new RPCHandler({ agent: agentRouter });
    server = await listen(async (req, res) => {
      const { matched } = await handler.handle(req, res, { prefix: "/rpc", context: { authorization: req.headers.authorization } });
      if (!matched) res.writeHead(404).end();
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${CLIENTS} concurrent HTTP capability clients, ${REQUESTS_PER_CLIENT} requests each (1 in 10 a describe): zero errors`, async () => {
    const clients = Array.from({ length: CLIENTS }, () => createHTTPCapabilityClient({ url: `${server.url}/rpc`, headers: { authorization: "Bearer tok-dana" } }));
    const invoked: string[] = [];
    const run = await drive(async (client, i) => {
      if (i % 10 === 0) {
        const catalog = await clients[client]!.describe();
        return catalog.descriptors.some((d) => d.id === "notes.count") ? undefined : "describe lost notes.count";
      }
      const invocationId = `load-${client}-${i}`;
      invoked.push(invocationId);
      const result = await clients[client]!.invoke({ capabilityId: "notes.count", input: { n: i }, invocationId });
      return result.status === "completed" && !result.replayed && (result.output as { counted: number }).counted === i ? undefined : `invoke ended ${JSON.stringify(result)}`;
    });
    report("remote capability router (RPCHandler + createHTTPCapabilityClient)", run);
    expect(run.errors.slice(0, 5)).toEqual([]);
    expect(run.latencies.length).toBeGreaterThanOrEqual(CLIENTS * 50);
    expectTerminalEvidence(app, invoked.length);

    // The journal answers a repeated invocation id from its record, without a second execution.
    const replays = await Promise.all(invoked.slice(0, 50).map((invocationId, k) => clients[k % CLIENTS]!.invoke({ capabilityId: "notes.count", input: { n: Number(invocationId.split("-")[2]) }, invocationId })));
    expect(replays.every((r) => r.status === "completed" && r.replayed)).toBe(true);
    expectTerminalEvidence(app, invoked.length);
  });
});
