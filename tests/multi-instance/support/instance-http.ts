// An instance's HTTP front, on one port:
//   /mcp        the MCP v2 endpoint (URL elicitation on the PostgreSQL elicitation store, the resume tool, tasks)
//   /rpc        the remote capability router over the PostgreSQL invocation journal
//   /chat       an AI SDK UI chat request for Dana (instance-chat.ts)
//   /decide     the approver's decision, /grants a standing grant (the app's own approval UI, played by the suite)
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RPCHandler } from "@orpc/server/node";
import type { AgentRuntime } from "../../../packages/core/src/index.ts";
import { createCapabilityRouter, createInvocationService } from "../../../packages/core/src/server/index.ts";
import { createMCPHandler } from "../../../packages/mcp/src/index.ts";
import { toNodeRequestListener } from "../../../packages/mcp/src/node/to-node-request-listener.ts";
import pg from "pg";
import {
  createPgInvocationJournal,
  createPgMCPElicitationStateStore,
  createPgMCPTaskStore,
  createPgTaskCancellations,
  pgListenFromClient,
  type PgQuery,
} from "../../../packages/postgres/src/index.ts";
import { STATE_KEYS, USERS } from "./cluster-config.ts";
import { chatRequest } from "./instance-chat.ts";

export type HttpFront = { port: number; close: () => Promise<void> };

const nowInSeconds = () => Math.floor(Date.now() / 1000);

export async function serveHttp(runtime: AgentRuntime<unknown>, o: { query: PgQuery; databaseUrl: string; schema: string; name: string; publicUrl: URL }): Promise<HttpFront> {
  const { query, name, publicUrl } = o;
  // A tasks/cancel reaching an instance that does not run the task is relayed to the one that does (one channel per schema).
  const listen = pgListenFromClient(() => new pg.Client({ connectionString: o.databaseUrl }));
  const cancellations = createPgTaskCancellations({ listen, query, channel: `${o.schema}_cancel` });
  // Every instance names the proxy's URL as the resource: clients only ever see the balancer.
  const mcp = createMCPHandler(runtime, {
    resource: publicUrl,
    verifyToken: (token) => (token in USERS ? { token, clientId: "agent-1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: publicUrl } : null),
    createContext: ({ authInfo }) => (authInfo && USERS[authInfo.token] ? { actor: { id: USERS[authInfo.token]!, kind: "user" }, context: {} } : null),
    approvals: { url: (record) => `https://approvals.example.test/requests/${record.id}`, resumeTool: true },
    // 2025-era clients' declared capabilities and pending approvals in the database: their next request may reach any instance.
    urlElicitation: { keys: STATE_KEYS, store: createPgMCPElicitationStateStore({ query }) },
    // A short task run lease, as the journal's: a killed instance's running task ends while the suite watches.
    tasks: { store: createPgMCPTaskStore({ query }), pollIntervalMs: 5, cancellations, runLeaseMs: 3_000 },
  });
  const mcpListener = toNodeRequestListener(mcp);

  // A short lease, so a killed instance's claim lapses while the suite watches (a lapse changes only what readers see).
  const service = createInvocationService({ journal: createPgInvocationJournal({ query }), namespace: "cluster", revision: "r1", leaseMs: 3_000 });
  const rpc = new RPCHandler({
    agent: createCapabilityRouter<{ authorization?: string }, Record<string, never>>({
      service,
      runtime: runtime as AgentRuntime<Record<string, never>>,
      surface: "aiSdk",
      resolve: async ({ context }) => {
        const id = USERS[context.authorization?.replace(/^Bearer /, "") ?? ""];
        return id === undefined ? null : { actor: { id, kind: "user" }, context: {} };
      },
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    }),
  });

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
    void approverRoute(runtime, req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await mcp.close();
      await listen.close();
    },
  };
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
}

function answer(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** The app's approver routes: the suite plays the approver on whichever instance it picks. */
async function approverRoute(runtime: AgentRuntime<unknown>, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    if (req.method === "POST" && path === "/decide") {
      const body = await bodyOf(req);
      const record = await runtime.approvals.decide(String(body.approvalId), body.decision as never);
      return answer(res, 200, { status: record.status });
    }
    if (req.method === "POST" && path === "/chat") return answer(res, 200, await chatRequest(runtime, (await bodyOf(req)) as never));
    if (req.method === "POST" && path === "/grants") {
      const record = await runtime.grants.issue((await bodyOf(req)) as never);
      return answer(res, 200, { id: record.id, usesLeft: record.usesLeft });
    }
    answer(res, 404, { error: "not found" });
  } catch (error) {
    answer(res, 409, { error: { code: (error as { code?: string }).code ?? "ERROR", message: String((error as Error).message) } });
  }
}
