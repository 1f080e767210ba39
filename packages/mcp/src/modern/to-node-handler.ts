import { toNodeHandler as sdkToNodeHandler } from "@modelcontextprotocol/node";
import type { MCPHandler } from "./create-handler.js";

/** Mounts `createMCPHandler`'s endpoint on `node:http` (or Express / Fastify's raw req/res) via the SDK's Node adapter. */
export function toNodeHandler(handler: MCPHandler): ReturnType<typeof sdkToNodeHandler> {
  // Our `fetch` does its own authentication, so the SDK's `authInfo` pass-through is not used.
  return sdkToNodeHandler({ fetch: (request) => handler.fetch(request) });
}
