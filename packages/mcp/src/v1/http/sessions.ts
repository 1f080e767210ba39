import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createServerHandle } from "../create-mcp-server.js";
import type { MCPServerOptions } from "../options.js";
import type { PreparedMCPServer } from "../../catalog/prepare.js";
import type { MCPServerHandle } from "../options.js";
import { observeBody } from "./observe-body.js";
import { sessionNotFound } from "./refusals.js";

/** Hands an admitted request (checks 1–5 passed, principal known) to an MCP transport. */
export type Dispatch = (request: Request, authInfo: AuthInfo | undefined, principal: string, requestIds: (string | number)[]) => Promise<Response>;

export type SessionLimits = { idleTimeoutMs: number; maxPerPrincipal: number };

type Session = {
  transport: WebStandardStreamableHTTPServerTransport;
  handle: MCPServerHandle;
  principal: string;
  /**
   * Requests whose responses are still open: while any is, the session is not idle. The standalone GET stream does
   * not count: this server sends nothing unsolicited on it, and a client holding it open is not using the session.
   */
  active: number;
  lastUsed: number;
  idle?: ReturnType<typeof setTimeout>;
};

/**
 * `"stateful"` (docs/architecture/spec/adapters.md#adapters-3-9 "Sessions"): one server handle and one transport per MCP session, keyed by the
 * `Mcp-Session-Id` the transport issues and bound to the principal that initialized it. A request naming another
 * principal's session, an expired or an evicted one gets the unknown-session 404, so an MCP client re-initializes.
 */
export function statefulDispatch<TContext>(prepared: PreparedMCPServer<TContext, MCPServerOptions<TContext>>, limits: SessionLimits): Dispatch {
  const sessions = new Map<string, Session>();
  const byPrincipal = new Map<string, Set<Session>>();

  const close = (session: Session) => {
    forget(session);
    void session.handle.server.close().catch(() => undefined);
  };
  function forget(session: Session): void {
    clearTimeout(session.idle);
    const id = session.transport.sessionId;
    if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    const owned = byPrincipal.get(session.principal);
    owned?.delete(session);
    if (owned?.size === 0) byPrincipal.delete(session.principal);
  }
  function register(id: string, session: Session): void {
    let owned = byPrincipal.get(session.principal);
    if (owned === undefined) byPrincipal.set(session.principal, (owned = new Set()));
    while (owned.size >= limits.maxPerPrincipal) close(leastRecentlyUsed(owned));
    owned.add(session);
    sessions.set(id, session);
  }
  function armIdle(session: Session): void {
    clearTimeout(session.idle);
    if (sessions.get(session.transport.sessionId ?? "") !== session) return;
    session.idle = setTimeout(() => close(session), limits.idleTimeoutMs);
    // A pending idle timer never keeps the process alive.
    session.idle.unref?.();
  }
  // Counts the request until its response ends or its reader leaves; the idle clock runs only at zero.
  function track(session: Session, response: Response, onCancel: () => void): Response {
    session.active += 1;
    session.lastUsed = Date.now();
    clearTimeout(session.idle);
    const release = () => {
      session.active -= 1;
      session.lastUsed = Date.now();
      if (session.active === 0) armIdle(session);
    };
    return observeBody(response, {
      onEnd: release,
      onCancel: () => {
        onCancel();
        release();
      },
    });
  }

  return async (request, authInfo, principal, requestIds) => {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      // Another principal's session is indistinguishable from one that never existed.
      if (session === undefined || session.principal !== principal) return sessionNotFound();
      session.active += 1; // held across handleRequest, so the idle timer cannot fire mid-request
      clearTimeout(session.idle);
      let response: Response;
      try {
        response = await session.transport.handleRequest(request, { authInfo });
      } finally {
        session.active -= 1;
      }
      if (request.method === "GET") {
        session.lastUsed = Date.now();
        if (session.active === 0) armIdle(session);
        return response;
      }
      return track(session, response, () => cancelRequests(session.transport, requestIds, authInfo));
    }

    const handle = createServerHandle(prepared);
    const session: Session = {
      handle,
      principal,
      active: 1,
      lastUsed: Date.now(),
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => register(id, session),
      }),
    };
    session.transport.onclose = () => forget(session);
    await handle.connect(session.transport);
    const response = await session.transport.handleRequest(request, { authInfo });
    session.active -= 1;
    // Anything but an initialize started no session: the transport has answered it; nothing is kept.
    if (session.transport.sessionId === undefined) {
      await handle.server.close();
      return observeBody(response, { onCancel: () => cancelRequests(session.transport, requestIds, authInfo) });
    }
    return track(session, response, () => cancelRequests(session.transport, requestIds, authInfo));
  };
}

/** The session to close when its principal opens one too many: an idle one first, else the least recently used. */
function leastRecentlyUsed(owned: Set<Session>): Session {
  let pick: Session | undefined;
  for (const session of owned) if (pick === undefined || closesBefore(session, pick)) pick = session;
  return pick!;
}

function closesBefore(a: Session, b: Session): boolean {
  const aIdle = a.active === 0;
  return aIdle !== (b.active === 0) ? aIdle : a.lastUsed < b.lastUsed;
}

/**
 * `"stateless"`: a fresh handle and transport per request, no `Mcp-Session-Id`; closed once the response is sent
 * or its client leaves (closing aborts whatever still runs, docs/architecture/spec/adapters.md#adapters-1-6).
 */
export function statelessDispatch<TContext>(prepared: PreparedMCPServer<TContext, MCPServerOptions<TContext>>): Dispatch {
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
 * An HTTP disconnect is a protocol abort (docs/architecture/spec/adapters.md#adapters-1-6): the client can no longer receive these responses, so
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
