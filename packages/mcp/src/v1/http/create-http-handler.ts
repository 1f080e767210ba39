import type { AgentRuntime } from "@orpc-agent/core";
import { prepareMCPServer } from "../../catalog/prepare.js";
import { hostRefusal } from "./allowed-host.js";
import { authenticate } from "./authenticate.js";
import {
  assertHttpOptions,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  type MCPHttpHandlerOptions,
} from "./options.js";
import { NO_IDENTITY, principalOf } from "./principal.js";
import { readBody, withBody } from "./read-body.js";
import { bodyTooLarge, internalError, noIdentity, noPrincipal } from "./refusals.js";
import { statefulDispatch, statelessDispatch } from "./sessions.js";

/**
 * A fetch-style Streamable HTTP endpoint for a governed MCP server, with per-request bearer verification
 * (docs/architecture/spec/adapters.md#adapters-3-9). Construction is synchronous and does no I/O. Mount it on any web-standard server, or on
 * `node:http`/Express through `toNodeRequestListener`.
 *
 * @example
 * import http from "node:http";
 * import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import { createMCPHttpHandler, toNodeRequestListener } from "@orpc-agent/mcp/v1";
 * declare const runtime: AgentRuntime<{ tenant: string }>;
 * declare function verifyWithYourIssuer(token: string): Promise<AuthInfo | null>;
 * declare function identityFrom(authInfo: AuthInfo | undefined): { actor: Actor; context: { tenant: string } } | null;
 * const handler = createMCPHttpHandler(runtime, {
 *   verifyToken: (token) => verifyWithYourIssuer(token),          // AuthInfo | null
 *   createContext: ({ authInfo }) => identityFrom(authInfo),     // { actor, context } | null
 *   resourceMetadataUrl: "https://api.example.com/.well-known/oauth-protected-resource/mcp",
 *   allowedHosts: ["api.example.com"],
 * });
 * http.createServer(toNodeRequestListener(handler)).listen(3000, "127.0.0.1");
 */
export function createMCPHttpHandler<TContext>(
  runtime: AgentRuntime<TContext>,
  options: MCPHttpHandlerOptions<TContext>,
): (request: Request) => Promise<Response> {
  const prepared = prepareMCPServer(runtime, options, "createMCPHttpHandler");
  assertHttpOptions(options as MCPHttpHandlerOptions<unknown>);
  const { allowedHosts } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limits = {
    idleTimeoutMs: options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    maxPerPrincipal: options.maxSessionsPerPrincipal ?? DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  };
  const dispatch = options.sessions === "stateless" ? statelessDispatch(prepared) : statefulDispatch(prepared, limits);

  // Checks 1–5 in order (the principal is named right after authentication); each refusal ends the request before any MCP processing.
  return async (request) => {
    try {
      const refusedHost = hostRefusal(request, allowedHosts);
      if (refusedHost !== undefined) return refusedHost;
      const auth = await authenticate(request, options);
      if (auth instanceof Response) return auth;
      const principal = await principalOf(auth.authInfo, options, request.headers.get("mcp-session-id") ?? undefined);
      if (principal === null) return noPrincipal("sessionPrincipal");
      if (principal === NO_IDENTITY) return noIdentity();
      const body = await readBody(request, maxBodyBytes);
      if (body === "too-large") return bodyTooLarge();
      const admitted = body === null ? request : withBody(request, body.bytes);
      return await dispatch(admitted, auth.authInfo, principal, body?.requestIds ?? []);
    } catch {
      return internalError();
    }
  };
}
