import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createServerHandle, type PreparedMCPServer } from "../create-mcp-server.js";
import { observeBody } from "./observe-body.js";
import { sessionNotFound } from "./refusals.js";

/** Hands an admitted request (checks 1–5 passed) to an MCP transport. */
export type Dispatch = (request: Request, authInfo: AuthInfo | undefined, requestIds: (string | number)[]) => Promise<Response>;

/**
 * `"stateful"` (adapters.md §3.9 "Sessions"): one server handle and one transport per MCP session, keyed by the
 * `Mcp-Session-Id` the transport issues. A request without an id gets a fresh pair, kept only if it initialized a
 * session; `DELETE` or transport close drops the pair and evicts its identities.
 */
export function statefulDispatch<TContext>(prepared: PreparedMCPServer<TContext>): Dispatch {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

  return async (request, authInfo, requestIds) => {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return sessionNotFound();
      const response = await transport.handleRequest(request, { authInfo });
      return observeBody(response, { onCancel: () => cancelRequests(transport, requestIds, authInfo) });
    }

    const handle = createServerHandle(prepared);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await handle.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    // Anything but an initialize started no session: the transport has answered it; nothing is kept.
    if (transport.sessionId === undefined) await handle.server.close();
    return observeBody(response, { onCancel: () => cancelRequests(transport, requestIds, authInfo) });
  };
}

/**
 * `"stateless"`: a fresh handle and transport per request, no `Mcp-Session-Id`; closed once the response is sent
 * or its client leaves (closing aborts whatever still runs, adapters.md §1.6).
 */
export function statelessDispatch<TContext>(prepared: PreparedMCPServer<TContext>): Dispatch {
  return async (request, authInfo) => {
    const handle = createServerHandle(prepared);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await handle.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    const close = () => void handle.server.close().catch(() => undefined);
    return observeBody(response, { onEnd: close, onCancel: close });
  };
}

/**
 * An HTTP disconnect is a protocol abort (adapters.md §1.6): the client can no longer receive these responses, so
 * each request still running is cancelled exactly as `notifications/cancelled` would, and its handler sees the abort.
 */
function cancelRequests(transport: WebStandardStreamableHTTPServerTransport, requestIds: (string | number)[], authInfo: AuthInfo | undefined): void {
  for (const requestId of requestIds) {
    transport.onmessage?.(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "The HTTP connection closed." } },
      { authInfo },
    );
  }
}
