// One instance of the app, run as its own process by the multi-instance suite (issue 48, item 3). Everything it
// shares with its siblings lives in one PostgreSQL schema: approvals and grants, MCP tasks, the invocation journal
// and the audit trail (strict, chained, each process its own chain). It serves, on one port:
//   /mcp        the MCP v2 endpoint (URL elicitation, the resume tool, tasks)
//   /rpc        the remote capability router over the PostgreSQL journal
//   /decide     the approver's decision, /grants a standing grant, /approvals the pending list (the app's own UI)
// Every handler execution inserts a row into `effects`, so the suite counts executions across processes.
// Configuration comes from the environment (see launcher.ts); prints "ready <port>" once listening, and
// "effect <capability> <key>" after each recorded execution.
// Run with: node --conditions=@orpc-agent/source --import tsx instance.ts
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { RPCHandler } from "@orpc/server/node";
import pg from "pg";
import { z } from "zod";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "../../../packages/core/src/index.ts";
import { createCapabilityRouter, createInvocationService } from "../../../packages/core/src/server/index.ts";
import { createMCPHandler } from "../../../packages/mcp/src/index.ts";
import { toNodeRequestListener } from "../../../packages/mcp/src/node/to-node-request-listener.ts";
import { createPgApprovalCoordinator, createPgAuditSink, createPgInvocationJournal, createPgMCPElicitationStateStore, createPgMCPTaskStore } from "../../../packages/postgres/src/index.ts";
import { ap } from "../../../packages/mcp/test/support/orpc.ts";
import { SEAL_KEYS, STATE_KEYS, USERS } from "./cluster-config.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`instance: ${name} is not set`);
  return value;
};
const name = env("MI_INSTANCE");
const schema = env("MI_SCHEMA");
const publicUrl = new URL(env("MI_PUBLIC_URL"));

const pool = new pg.Pool({ connectionString: env("MI_DATABASE_URL"), max: 12, options: `-c search_path=${schema}` });
pool.on("error", () => {});
const query = (sql: string, params?: unknown[]) => pool.query(sql, params);

/** Records one execution in the shared table, then tells the suite (which waits on these lines, never on time). */
async function recordEffect(capability: string, key: string): Promise<void> {
  await query("insert into effects (instance, capability, key) values ($1, $2, $3)", [name, capability, key]);
  process.stdout.write(`effect ${capability} ${key}\n`);
}

/** An order id starting with "hang-" records its effect and never returns: the call the suite kills an instance in. */
async function execute(capability: string, key: string): Promise<void> {
  await recordEffect(capability, key);
  if (key.startsWith("hang-")) await new Promise(() => {});
}

const gated = (description: string, approval: Record<string, unknown> = {}) =>
  agentMeta({ description, expose: { mcp: true, aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true, ...approval } } as never);
const refundInput = z.object({ orderId: z.string(), amount: z.number() });

const registry = createCapabilityRegistry({
  payments: {
    refund: ap
      .input(refundInput)
      .meta(gated("Refund a payment."))
      .handler(async ({ input }) => {
        await execute("payments.refund", input.orderId);
        return { refunded: input.amount };
      }),
    // Two distinct approvers must agree.
    bulkRefund: ap
      .input(refundInput)
      .meta(gated("Refund many payments.", { quorum: 2 }))
      .handler(async ({ input }) => {
        await execute("payments.bulkRefund", input.orderId);
        return { refunded: input.amount };
      }),
    // Standing grants may cover it (SI-13).
    credit: ap
      .input(refundInput)
      .meta(gated("Credit an account.", { grants: { maxUses: 10, maxTtlMs: 3_600_000, scopes: ["actor"] } }))
      .handler(async ({ input }) => {
        await execute("payments.credit", input.orderId);
        return { credited: input.amount };
      }),
  },
  jobs: {
    // Ungated write for the journaled remote path.
    run: ap
      .input(z.object({ key: z.string() }))
      .meta(agentMeta({ description: "Run a job.", expose: { mcp: true, aiSdk: true }, sideEffect: "write", risk: "low" } as never))
      .handler(async ({ input }) => {
        await execute("jobs.run", input.key);
        return { ran: input.key };
      }),
  },
});

const sink = createPgAuditSink({
  query,
  checkpoint: { privateKey: readFileSync(env("MI_AUDIT_KEY"), "utf8"), keyId: name, everyEvents: 20 },
});
const runtime = createAgentRuntime({
  governance: defineGovernance({ registry }),
  approvals: { coordinator: createPgApprovalCoordinator({ query }), seal: { keys: SEAL_KEYS } },
  audit: { sinks: [sink], strict: true, chain: true },
});

const nowInSeconds = () => Math.floor(Date.now() / 1000);
const mcp = createMCPHandler(runtime, {
  resource: publicUrl,
  verifyToken: (token) => (token in USERS ? { token, clientId: "agent-1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: publicUrl } : null),
  createContext: ({ authInfo }) => (authInfo && USERS[authInfo.token] ? { actor: { id: USERS[authInfo.token]!, kind: "user" }, context: {} } : null),
  approvals: { url: (record) => `https://approvals.example.test/requests/${record.id}`, resumeTool: true },
  // 2025-era clients' declared capabilities and pending approvals in the database: their next request may reach any instance.
  urlElicitation: { keys: STATE_KEYS, store: createPgMCPElicitationStateStore({ query }) },
  tasks: { store: createPgMCPTaskStore({ query }), pollIntervalMs: 5 },
});
const mcpListener = toNodeRequestListener(mcp);

// A short lease, so a killed instance's claim lapses while the suite watches (the lapse only changes what readers see).
const service = createInvocationService({ journal: createPgInvocationJournal({ query }), namespace: "cluster", revision: "r1", leaseMs: 3_000 });
const rpc = new RPCHandler({
  agent: createCapabilityRouter<{ authorization?: string }, Record<string, never>>({
    service,
    runtime,
    surface: "aiSdk",
    resolve: async ({ context }) => {
      const id = USERS[context.authorization?.replace(/^Bearer /, "") ?? ""];
      return id === undefined ? null : { actor: { id, kind: "user" }, context: {} };
    },
    authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
  }),
});

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
}

function answer(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "x-instance": name }).end(JSON.stringify(value));
}

/** The app's approver routes: the suite plays the approver on whichever instance it picks. */
async function approverRoute(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    if (req.method === "POST" && path === "/decide") {
      const body = await bodyOf(req);
      const record = await runtime.approvals.decide(String(body.approvalId), body.decision as never);
      return answer(res, 200, { status: record.status, decisions: record.decisions?.length ?? 0 });
    }
    if (req.method === "POST" && path === "/grants") {
      const record = await runtime.grants.issue((await bodyOf(req)) as never);
      return answer(res, 200, { id: record.id, usesLeft: record.usesLeft });
    }
    if (req.method === "GET" && path === "/approvals") {
      const records = await runtime.approvals.list!({ status: "pending" });
      return answer(res, 200, records.map((record) => ({ id: record.id, capabilityId: record.capabilityId, input: record.input })));
    }
    answer(res, 404, { error: "not found" });
  } catch (error) {
    answer(res, 409, { error: { code: (error as { code?: string }).code ?? "ERROR", message: String((error as Error).message) } });
  }
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://instance").pathname;
  res.setHeader("x-instance", name);
  if (path === "/mcp") return void mcpListener(req, res);
  if (path.startsWith("/rpc")) {
    void rpc.handle(req, res, { prefix: "/rpc", context: { authorization: req.headers.authorization } }).then(({ matched }) => {
      if (!matched) res.writeHead(404).end();
    });
    return;
  }
  void approverRoute(req, res, path);
});

server.listen(0, "127.0.0.1", () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));

// A graceful stop drains the audit trail and signs the chain's closing checkpoint; kill -9 does neither.
process.once("SIGTERM", async () => {
  server.closeAllConnections();
  server.close();
  await mcp.close();
  await runtime.drainAudit({ timeoutMs: 20_000 });
  await sink.close();
  await pool.end();
  process.exit(0);
});
