import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { toNodeRequestListener } from "@orpc-agent/mcp/node";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { mcpTokens, roles } from "../agent/people.js";

/**
 * The app's MCP endpoint over Streamable HTTP on loopback, for 2026-07-28 and 2025-era clients alike. Each request's
 * bearer token is verified; the actor comes from the verified token, never from anything the client or model sends.
 */
export async function startMcpServer(
  runtime: AgentRuntime<AppContext>,
  store: Store,
  port = 0,
): Promise<{ url: string; close(): Promise<void> }> {
  // Listen first: the audience check and the Host allowlist need the endpoint's own URL.
  let nodeHandler: ReturnType<typeof toNodeRequestListener> | undefined;
  const server: Server = createServer((req, res) => void nodeHandler!(req, res));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
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
  });
  nodeHandler = toNodeRequestListener(handler);
  return {
    url: url.href,
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
