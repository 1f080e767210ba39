import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeHandler as sdkToNodeHandler } from "@modelcontextprotocol/node";
import { createNodeRequestListener } from "./node-request-listener.js";
import { isFetchForbiddenMethod, isHostAuthority } from "../http/web-request-shape.js";
import type { MCPHandler } from "../http/create-handler.js";

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
  const fetch = (request: Request) => handler.fetch(request);
  const sdkListener = sdkToNodeHandler({ fetch });
  // The SDK's adapter builds the URL from the Host header and answers 500 when it cannot (userinfo, a bad port) or
  // when fetch forbids the method (TRACE). Those requests go through this package's own adapter: the URL gets a
  // fixed authority, the Host header stays as sent for the endpoint's Host check to refuse, and TRACE answers 405.
  const ownListener = createNodeRequestListener(fetch, { allow: "POST" });
  // Node's own req and res reach the fallback: the duck-typed shapes in the SDK's type are what it reads, not all there is.
  return (req, res, parsedBody) => (sdkCanCarry(req) ? sdkListener(req, res, parsedBody) : ownListener(req as IncomingMessage, res as ServerResponse));
}

/**
 * Whether the SDK's adapter can build this request's web `Request` as sent (it reads `Host`, else `:authority`). Not
 * with two Host lines: it would see only the first, where this package's adapter passes both on to be refused.
 */
function sdkCanCarry(req: Pick<IncomingMessage, "headers" | "method"> & Partial<Pick<IncomingMessage, "headersDistinct">>): boolean {
  const authority = first(req.headers.host) ?? first(req.headers[":authority"]);
  const hostLines = req.headersDistinct?.host?.length ?? 0;
  return hostLines <= 1 && (authority === undefined || isHostAuthority(authority)) && !isFetchForbiddenMethod(req.method ?? "GET");
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
