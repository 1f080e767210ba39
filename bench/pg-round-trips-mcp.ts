// PostgreSQL round trips of the MCP flows whose state an endpoint keeps in the database when it runs as several
// instances (issue 48): an MCP task's polls (`tasks/get` on a pending task, and the poll that completes it), and a
// 2025-11-25 client's URL-elicitation retries (the elicitation state store's lookups). Counted through each
// component's `PgQuery` seam like pg-round-trips.ts: the task store or elicitation state store, the coordinator
// (unsealed rows) and strict PostgreSQL audit, separately. Requests go to the handler's `fetch`, no socket.
//   npx tsx --tsconfig bench/tsconfig.json bench/pg-round-trips-mcp.ts   (from the repository root: only these rows)
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPHandler, type MCPHandler } from "@orpc-agent/mcp";
import { INVOCATIONS_DDL, createPgApprovalCoordinator, createPgAuditSink, createPgMCPElicitationStateStore, createPgMCPTaskStore } from "@orpc-agent/postgres";
import { os } from "@orpc/server";
import { countingQuery, type CountingQuery } from "./counting-query.js";
import { createBenchSchema, type BenchSchema } from "./pg-database.js";
import type { RoundTripRow } from "./pg-round-trips.js";
import { openBenchDatabase } from "./pg-server.js";

const RESOURCE = new URL("http://127.0.0.1/mcp");
const requester = { id: "bench_requester", kind: "user" as const };
const approver = { id: "bench_approver", kind: "user" as const };
const KEYS = [{ id: "k1", secret: "bench-request-state-secret-0123456789abcdef" }];

const governance = () =>
  defineGovernance({
    registry: createCapabilityRegistry({
      orders: {
        refund: agentProcedure(os)
          .input(z.object({ id: z.string() }))
          .meta({ agent: { description: "Refund an order.", expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } } })
          .handler(({ input }) => ({ id: input.id, refunded: true })),
      },
    }),
  });

type Counted = Record<"store" | "coordinator" | "audit", CountingQuery>;

/** A runtime and an MCP endpoint whose every PostgreSQL component counts its statements on its own. */
function endpoint(db: BenchSchema, storeFor: "tasks" | "elicitation"): { counted: Counted; handler: MCPHandler; decide(id: string): Promise<unknown>; close(): Promise<void> } {
  const query = db.queryOf(db.pool());
  const counted: Counted = { store: countingQuery(query), coordinator: countingQuery(query), audit: countingQuery(query) };
  const sink = createPgAuditSink({ query: counted.audit.query });
  const runtime = createAgentRuntime({
    governance: governance(),
    approvals: { coordinator: createPgApprovalCoordinator({ query: counted.coordinator.query }), seal: false },
    audit: { sinks: [sink], strict: true },
  });
  const handler = createMCPHandler(runtime, {
    resource: RESOURCE,
    verifyToken: (token) => (token === "tok" ? { token, clientId: "bench", scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, resource: RESOURCE } : null),
    createContext: () => ({ actor: requester, context: {} }),
    approvals: { url: (record) => `https://approvals.example.test/${record.id}` },
    urlElicitation: { keys: KEYS, ...(storeFor === "elicitation" ? { store: createPgMCPElicitationStateStore({ query: counted.store.query }) } : {}) },
    ...(storeFor === "tasks" ? { tasks: { store: createPgMCPTaskStore({ query: counted.store.query }), pollIntervalMs: 1 } } : {}),
  });
  return {
    counted,
    handler,
    decide: (id) => runtime.approvals.decide(id, { status: "approved", approver }),
    close: async () => {
      await handler.close();
      await runtime.drainAudit();
      await sink.close();
    },
  };
}

/** Statements per component while `run` ran (the audit included once its writes settled). */
async function measure(counted: Counted, run: () => Promise<unknown>): Promise<Record<keyof Counted, number>> {
  const before = { store: counted.store.count, coordinator: counted.coordinator.count, audit: counted.audit.count };
  await run();
  return { store: counted.store.count - before.store, coordinator: counted.coordinator.count - before.coordinator, audit: counted.audit.count - before.audit };
}

function row(key: string, flow: string, totals: Record<keyof Counted, number>, flows: number, storeName: string): RoundTripRow {
  const per = (n: number) => n / flows;
  return {
    key,
    flow,
    perFlow: per(totals.store + totals.coordinator + totals.audit),
    detail: `${per(totals.store).toFixed(2)} ${storeName} + ${per(totals.coordinator).toFixed(2)} coordinator + ${per(totals.audit).toFixed(2)} audit`,
  };
}

const add = (into: Record<keyof Counted, number>, from: Record<keyof Counted, number>) => {
  for (const k of Object.keys(into) as (keyof Counted)[]) into[k] += from[k];
};
const zero = () => ({ store: 0, coordinator: 0, audit: 0 });

/** One raw 2026-07-28 request declaring the tasks extension, as a tasks-aware client frames it. */
async function modern(handler: MCPHandler, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } },
  };
  const name = method === "tools/call" ? String(params.name) : String(params.taskId);
  const response = await handler.fetch(
    new Request(RESOURCE, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer tok", host: RESOURCE.host, "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } }),
    }),
  );
  const text = await response.text();
  const message = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6))).at(-1)
    : JSON.parse(text);
  if (message.error) throw new Error(`bench: ${method} failed: ${JSON.stringify(message.error)}`);
  return message.result as Record<string, unknown>;
}

async function taskPolls(db: BenchSchema, flows: number): Promise<RoundTripRow[]> {
  const { counted, handler, decide, close } = endpoint(db, "tasks");
  const totals = { create: zero(), pending: zero(), completing: zero() };
  let completingPolls = 0;
  const flow = async (i: number, into: typeof totals | undefined) => {
    let task!: Record<string, unknown>;
    const created = await measure(counted, async () => void (task = await modern(handler, "tools/call", { name: "orders_refund", arguments: { id: `o${i}` } })));
    if (task.resultType !== "task" || task.status !== "input_required") throw new Error(`bench: expected a task in input_required, got ${JSON.stringify(task)}`);
    const approvalId = /apr_[0-9a-f-]+/.exec(JSON.stringify(task))![0];
    const pending = await measure(counted, async () => {
      const polled = await modern(handler, "tasks/get", { taskId: task.taskId });
      if (polled.status !== "input_required") throw new Error(`bench: a pending poll answered ${polled.status}`);
    });
    await decide(approvalId);
    // The poll that finds the decision starts the resumed call; until the task has settled, a poll may answer
    // "working": every poll from the decision to "completed" is counted with this row (their number in its detail).
    const completing = await measure(counted, async () => {
      let polled = await modern(handler, "tasks/get", { taskId: task.taskId });
      if (into) completingPolls++;
      while (polled.status === "working") {
        polled = await modern(handler, "tasks/get", { taskId: task.taskId });
        if (into) completingPolls++;
      }
      if (polled.status !== "completed") throw new Error(`bench: the task ended ${polled.status}`);
    });
    if (into) {
      add(into.create, created);
      add(into.pending, pending);
      add(into.completing, completing);
    }
  };
  await flow(-1, undefined); // warm-up
  for (let i = 0; i < flows; i++) await flow(i, totals);
  await close();
  return [
    row("pgMcpTaskCreate", "MCP task: tools/call creating it (approval pending)", totals.create, flows, "task store"),
    row("pgMcpTaskPollPending", "MCP task: tasks/get on a pending task", totals.pending, flows, "task store"),
    { ...row("pgMcpTaskPollCompleting", "MCP task: the tasks/get polls from the decision to completed", totals.completing, flows, "task store"), detail: `${row("", "", totals.completing, flows, "task store").detail}; ${(completingPolls / flows).toFixed(2)} polls` },
  ];
}

/** A 2025-11-25 client (v1 SDK, `initialize`, URL elicitation declared), its HTTP requests handed to `handler.fetch`. */
async function legacyClient(handler: MCPHandler): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "bench-legacy", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } as never });
  await client.connect(
    new LegacyHttp(RESOURCE, {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", "Bearer tok");
        headers.set("host", RESOURCE.host);
        return handler.fetch(new Request(input, { ...init, headers }));
      },
    }),
  );
  return client;
}

async function urlElicitationRetries(db: BenchSchema, flows: number): Promise<RoundTripRow[]> {
  const { counted, handler, decide, close } = endpoint(db, "elicitation");
  const client = await legacyClient(handler);
  const totals = { first: zero(), pending: zero(), completing: zero() };
  const call = (i: number) => client.callTool({ name: "orders_refund", arguments: { id: `o${i}` } });
  const urlRequired = async (i: number): Promise<string> => {
    const error = await call(i).then(
      (result) => {
        throw new Error(`bench: expected -32042, got ${JSON.stringify(result)}`);
      },
      (e: { code?: number; data?: { elicitations?: { url: string }[] } }) => e,
    );
    if (error.code !== -32042) throw new Error(`bench: expected -32042, got ${String(error)}`);
    return error.data!.elicitations![0]!.url;
  };
  const flow = async (i: number, into: typeof totals | undefined) => {
    let url = "";
    const first = await measure(counted, async () => void (url = await urlRequired(i)));
    const pending = await measure(counted, () => urlRequired(i));
    await decide(/apr_[0-9a-f-]+/.exec(url)![0]);
    const completing = await measure(counted, async () => {
      const done = (await call(i)) as { structuredContent?: { status?: string } };
      if (done.structuredContent?.status !== "ok") throw new Error(`bench: the retry ended ${JSON.stringify(done)}`);
    });
    if (into) {
      add(into.first, first);
      add(into.pending, pending);
      add(into.completing, completing);
    }
  };
  await flow(-1, undefined); // warm-up
  for (let i = 0; i < flows; i++) await flow(i, totals);
  await client.close();
  await close();
  return [
    row("pgMcpUrl25First", "2025-11-25 URL elicitation: the call (-32042, pending remembered)", totals.first, flows, "elicitation store"),
    row("pgMcpUrl25RetryPending", "2025-11-25 URL elicitation: a retry while pending", totals.pending, flows, "elicitation store"),
    row("pgMcpUrl25RetryCompleting", "2025-11-25 URL elicitation: the retry after approval (runs it)", totals.completing, flows, "elicitation store"),
  ];
}

/** The MCP rows of the database section; the bench schema gets the task and elicitation tables first. */
export async function mcpStateRoundTrips(db: BenchSchema, flows: number): Promise<RoundTripRow[]> {
  await db.queryOf(db.pool())(INVOCATIONS_DDL, []);
  return [...(await taskPolls(db, flows)), ...(await urlElicitationRetries(db, flows))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await openBenchDatabase();
  const db = await createBenchSchema(database.url);
  try {
    for (const r of await mcpStateRoundTrips(db, 20)) console.log(`${r.flow.padEnd(70)} ${r.perFlow.toFixed(2).padStart(6)}   ${r.detail}`);
  } finally {
    await db.drop();
    await database.close();
  }
}
