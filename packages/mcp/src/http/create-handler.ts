import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedOrigins,
  originValidationResponse,
  readRequestBody,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import type { AgentRuntime } from "@orpc-agent/core";
import { matchesRequester } from "@orpc-agent/core/adapter";
import { createBearerGate } from "./bearer.js";
import { createGovernedServer } from "../server/governed-server.js";
import { hostRefusal } from "./host-check.js";
import { assertHandlerOptions, DEFAULT_MAX_BODY_BYTES, type MCPHandlerOptions } from "./handler-options.js";
import { resolveIdentity } from "../server/identity.js";
import { prepareGovernedServer } from "../server/prepare.js";
import { createLegacyCancellation, singleMessage } from "../compat/legacy-cancel.js";
import { createResourceMetadata } from "./resource-metadata.js";
import { collectToolScopes, enforceToolScopes, SCOPE_REFUSED_TOOL_NAME, type ScopeCheck } from "./scopes.js";

/** A web-standard MCP endpoint: `fetch` for Hono, Next.js route handlers, Bun, Deno and Workers; `toNodeRequestListener` for Node. */
export type MCPHandler = {
  fetch(request: Request): Promise<Response>;
  /** Aborts in-flight exchanges (their handlers see the abort) and refuses further requests. */
  close(): Promise<void>;
};

/**
 * A governed MCP endpoint on the v2 SDK: 2026-07-28 clients and 2025-era clients (stateless, per request) on one
 * URL, every request authenticated on its own as an OAuth 2.1 resource server (docs/architecture/spec/adapters.md#adapters-3, docs/architecture/spec/amendments-2026-12.md).
 *
 * @example
 * import type { AuthInfo } from "@modelcontextprotocol/server";
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { createMCPHandler } from "@orpc-agent/mcp";
 * declare const runtime: AgentRuntime, tokens: { verify(token: string): Promise<AuthInfo | null> };
 * const mcp = createMCPHandler(runtime, {
 *   verifyToken: (token) => tokens.verify(token),
 *   createContext: ({ authInfo }) => (authInfo ? { actor: { id: authInfo.clientId, kind: "user" }, context: {} } : null),
 * });
 * export default { fetch: mcp.fetch };
 */
export function createMCPHandler<TContext>(runtime: AgentRuntime<TContext>, options: MCPHandlerOptions<TContext>): MCPHandler {
  if (typeof options === "object" && options !== null) assertHandlerOptions(options as MCPHandlerOptions<unknown>);
  const prepared = prepareGovernedServer(runtime, options, "createMCPHandler");
  const base = prepared;
  const gate = createBearerGate(options as MCPHandlerOptions<unknown>);
  const metadata = createResourceMetadata(options as MCPHandlerOptions<unknown>);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const origins = options.allowedOrigins === undefined ? localhostAllowedOrigins() : options.allowedOrigins;
  const toolScopes = collectToolScopes(runtime.registry);
  const legacyCancels = createLegacyCancellation(options);

  const sdkOptions = { legacy: options.legacy ?? "stateless", maxRequestBodySize: maxBodyBytes } as const;
  const sdk = createMcpHandler(({ era, authInfo }) => createGovernedServer(prepared, era, { kind: "http", authInfo, legacyCalls: legacyCancels }), sdkOptions);
  // A 2026-07-28 call the scope check refuses is served here with the body and headers the client sent: the SDK's
  // `Mcp-Name` check then judges the name the client wrote, exactly as for an unknown name (SI-8), and the call
  // itself runs as the placeholder no tool holds, so the capability cannot run (SI-2).
  const concealing = createMcpHandler(
    ({ era, authInfo }) => createGovernedServer(prepared, era, { kind: "http", authInfo, legacyCalls: legacyCancels, callsAs: SCOPE_REFUSED_TOOL_NAME }),
    sdkOptions,
  );

  const scopeCheck = (authInfo: AuthInfo, era: "modern" | "legacy"): ScopeCheck => ({
    toolScopes,
    catalog: base.catalog,
    endpointScopes: options.requiredScopes ?? [],
    resourceMetadataUrl: gate.resourceMetadataUrl,
    async visible(id) {
      try {
        const { actor, context } = await resolveIdentity(options, { era, authInfo });
        const descriptors = await runtime.describe("mcp", { actor, context, inputSchemas: "shared" });
        return descriptors.some((descriptor) => descriptor.id === id);
      } catch {
        return false;
      }
    },
    async approvedCapability(approvalId) {
      if (approvalId === "") return undefined;
      const { actor } = await resolveIdentity(options, { era, authInfo });
      const record = await runtime.approvals.get(approvalId);
      // Resume's own guard (id, kind, OAuth client): another principal's approval, which the runtime refuses by the
      // same rule, skips no scope, and a challenge naming its tool would tell it the id exists (SI-3, SI-8).
      if (record === null || record.surface !== "mcp" || !matchesRequester(actor, record.actor)) return undefined;
      return record.capabilityId;
    },
  });

  return {
    async fetch(request) {
      const badHost = hostRefusal(request, options.allowedHosts);
      if (badHost !== undefined) return badHost;
      // The document is public and read cross-origin by design: only the Host check precedes it.
      const document = metadata?.(request);
      if (document !== undefined) return document;
      const refused = origins === "any" ? undefined : originValidationResponse(request, origins);
      if (refused !== undefined) return refused;
      const authInfo = await gate.authenticate(request);
      if (authInfo instanceof Response) return authInfo;
      if (request.method !== "POST") return sdk.fetch(request, authInfo === undefined ? undefined : { authInfo });
      // The body is read once, under the SDK's limit, and its parse handed on: scopes and 2025-era cancellation need it.
      const read = await readRequestBody(request, maxBodyBytes);
      if (read.tooLarge) return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Request body too large." } }, { status: 413 });
      let parsedBody: unknown;
      try {
        parsedBody = JSON.parse(read.text);
      } catch {
        const copy = new Request(request.url, { method: request.method, headers: request.headers, body: read.text, signal: request.signal });
        return sdk.fetch(copy, authInfo === undefined ? undefined : { authInfo });
      }
      const legacy = await isLegacyRequest(request, parsedBody);
      if (authInfo !== undefined && toolScopes.size > 0) {
        const enforced = await enforceToolScopes(parsedBody, authInfo, scopeCheck(authInfo, legacy ? "legacy" : "modern"));
        if ("challenge" in enforced) return enforced.challenge;
        if (enforced.renamed && !legacy) return concealing.fetch(request, { parsedBody, authInfo });
        // 2025-era requests have no Mcp-Name check and may be batches: the refused calls are renamed in the body.
        if (enforced.renamed) parsedBody = enforced.body;
      }
      const message = singleMessage(parsedBody);
      const requestOptions = { parsedBody, ...(authInfo !== undefined && { authInfo }) };
      if (message === undefined || !legacy) return sdk.fetch(request, requestOptions);
      if (message.method === "notifications/cancelled") await legacyCancels.cancel(authInfo, message.params?.requestId);
      if (message.method !== "tools/call" || message.id === undefined) return sdk.fetch(request, requestOptions);
      const tracked = legacyCancels.track(request, read.text, message.id);
      try {
        return releaseWhenDone(await sdk.fetch(tracked.request, requestOptions), tracked.release);
      } catch (error) {
        tracked.release();
        throw error;
      }
    },
    close: async () => {
      legacyCancels.abortAll();
      await Promise.all([sdk.close(), concealing.close()]);
    },
  };
}

/** The answer may stream after `fetch` resolves: the call is in flight until its body ends or is dropped. */
function releaseWhenDone(response: Response, release: () => void): Response {
  if (response.body === null) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        release();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
