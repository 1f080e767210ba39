import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMCPHttpHandler, toNodeHandler } from "@orpc-agent/mcp";
import type { AgentRuntime } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { mcpTokens, roles } from "../agent/people.js";

/**
 * The app's MCP endpoint over Streamable HTTP on loopback. Each request's bearer token is verified; the session's
 * actor comes from the verified token, never from anything the client or the model sends.
 */
export async function startMcpServer(runtime: AgentRuntime<AppContext>, store: Store): Promise<{ url: string; close(): Promise<void> }> {
  // Listen first: DNS-rebinding protection allows exactly this Host header, port included.
  let nodeHandler: ReturnType<typeof toNodeHandler> | undefined;
  const server: Server = createServer((req, res) => void nodeHandler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  nodeHandler = toNodeHandler(
    createMCPHttpHandler(runtime, {
      verifyToken: (token) => (token in mcpTokens ? { token, clientId: "demo-client", scopes: ["support"] } : null),
      createContext: ({ authInfo }) => {
        const actor = authInfo ? mcpTokens[authInfo.token] : undefined;
        return actor ? { actor, context: { store, user: { id: actor.id, role: roles[actor.id]! } } } : null;
      },
      allowedHosts: [`127.0.0.1:${port}`],
    }),
  );
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
