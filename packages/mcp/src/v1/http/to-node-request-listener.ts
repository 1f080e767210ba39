import type { IncomingMessage, ServerResponse } from "node:http";
import { createNodeRequestListener } from "../../node/node-request-listener.js";

/**
 * Adapts a fetch-style handler to `node:http` and Express (docs/architecture/spec/adapters.md#adapters-3-9): builds a web `Request` whose
 * `signal` aborts when the client disconnects, then streams the response (SSE included) until it ends or the
 * client leaves. It reads the raw body itself, so mount it before any body parser.
 *
 * @example
 * import http from "node:http";
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { createMCPHttpHandler, toNodeRequestListener, type MCPHttpHandlerOptions } from "@orpc-agent/mcp/v1";
 * declare const runtime: AgentRuntime, options: MCPHttpHandlerOptions, handler: (request: Request) => Promise<Response>;
 * declare const app: { all(path: string, handler: http.RequestListener): void }; // an Express app
 * http.createServer(toNodeRequestListener(createMCPHttpHandler(runtime, options))).listen(3000, "127.0.0.1");
 * app.all("/mcp", toNodeRequestListener(handler)); // Express, before express.json()
 */
export function toNodeRequestListener(
  fetchHandler: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return createNodeRequestListener(fetchHandler, { allow: "GET, POST, DELETE" });
}
