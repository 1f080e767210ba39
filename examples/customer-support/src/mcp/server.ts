import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler, type MCPElicitationStateStore, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { toNodeRequestListener } from "@orpc-agent/mcp/node";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { mcpTokens, roles } from "../agent/people.js";

/**
 * The app's MCP endpoint over Streamable HTTP on loopback, for 2026-07-28 and 2025-era clients alike. Each request's
 * bearer token is verified; the actor comes from the verified token, never from anything the client or model sends.
 *
 * With `approvalsPage` (the app's approvals page, served by the same process), a call that needs approval answers
 * with a link to it (as URL elicitation for clients that declare it), and `approvals_resume` completes the call once
 * a manager has approved it there.
 *
 * With `shared` (`pnpm mcp:cluster`), every instance keeps what the endpoint remembers between requests in the one
 * database, and `publicUrl` is the load balancer's URL: the audience clients' tokens name.
 */
export async function startMcpServer(
  runtime: AgentRuntime<AppContext>,
  store: Store,
  port = 0,
  options: { approvalsPage?: URL; publicUrl?: URL; shared?: SharedMcpState } = {},
): Promise<{ url: string; /** The port this process listens on (behind a load balancer, not the one in `url`). */ port: number; close(): Promise<void> }> {
  // Listen first: the audience check and the Host allowlist need the endpoint's own URL.
  let nodeHandler: ReturnType<typeof toNodeRequestListener> | undefined;
  const server: Server = createServer((req, res) => void nodeHandler!(req, res));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = options.publicUrl ?? new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const handler = createMCPHandler(runtime, {
    resource: url,
    // Demo tokens: a real verifier reads expiry and audience from the token (JWT `exp`/`aud`, or introspection).
    verifyToken: (token) =>
      token in mcpTokens ? { token, clientId: "demo-client", scopes: ["support"], expiresAt: Math.floor(Date.now() / 1000) + 3600, resource: url } : null,
    createContext: ({ authInfo }) => {
      const actor = authInfo ? mcpTokens[authInfo.token] : undefined;
      return actor ? { actor, context: { store, user: { id: actor.id, role: roles[actor.id]! } } } : null;
    },
    allowedHosts: ["127.0.0.1"],
    ...(options.approvalsPage ? approvalsThrough(options.approvalsPage, options.shared) : {}),
  });
  nodeHandler = toNodeRequestListener(handler);
  return {
    url: url.href,
    port: (server.address() as AddressInfo).port,
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/**
 * The demo's approvals page signs people in with its `as` parameter, so the link lands as Priya, a manager; a real
 * app's link lands on its own sign-in. The state key would come from your secret store; a fresh one per start only
 * means that a 2026-07-28 client's pending retry does not survive a restart.
 */
function approvalsThrough(page: URL, shared: SharedMcpState | undefined) {
  return {
    approvals: { url: (record: { id: string }) => `${new URL(`/?as=u_priya#${encodeURIComponent(record.id)}`, page)}`, resumeTool: true },
    urlElicitation: {
      keys: [{ id: "demo", secret: process.env.MCP_STATE_SECRET ?? randomBytes(32).toString("base64url") }],
      ...(shared ? { store: shared.elicitationState, decisions: shared.decisions } : {}),
    },
    // 2026-07-28 clients that declare the tasks extension get the refund as a task that completes on the server once
    // Priya approves (docs/guides/mcp-approvals.md, "Approvals as tasks"); tasks live in memory unless `shared`.
    tasks: { pollIntervalMs: 1_000, ...(shared ? { store: shared.tasks, cancellations: shared.taskCancellations } : {}) },
  } satisfies Partial<MCPHandlerOptions<AppContext>>;
}

type TasksOption = Exclude<NonNullable<MCPHandlerOptions<AppContext>["tasks"]>, boolean>;

/** What several instances must share (docs/guides/running-several-instances.md): stores and feeds on one database. */
export type SharedMcpState = {
  elicitationState: MCPElicitationStateStore;
  decisions: (listener: (approvalId: string) => void) => () => void;
  tasks: NonNullable<TasksOption["store"]>;
  taskCancellations: NonNullable<TasksOption["cancellations"]>;
};
