import { toNodeHandler as sdkToNodeHandler } from "@modelcontextprotocol/node";
import type { MCPHandler } from "./create-handler.js";

/**
 * Mounts `createMCPHandler`'s endpoint on `node:http` (or Express / Fastify's raw req/res): returns a Node request
 * listener, built with the SDK's Node adapter.
 *
 * @example
 * import http from "node:http";
 * import { toNodeRequestListener } from "@orpc-agent/mcp/node";
 * import type { MCPHandler } from "@orpc-agent/mcp";
 * declare const handler: MCPHandler;
 * http.createServer(toNodeRequestListener(handler)).listen(3000, "127.0.0.1");
 */
export function toNodeRequestListener(handler: MCPHandler): ReturnType<typeof sdkToNodeHandler> {
  // Our `fetch` does its own authentication, so the SDK's `authInfo` pass-through is not used.
  return sdkToNodeHandler({ fetch: (request) => handler.fetch(request) });
}
