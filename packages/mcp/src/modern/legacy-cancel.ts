import type { AuthInfo } from "@modelcontextprotocol/server";

/**
 * 2025-era cancellation on a stateless endpoint: the client sends `notifications/cancelled` as its own POST, which
 * the SDK serves on a fresh instance that never saw the call. We keep each in-flight legacy request's abort
 * controller under (principal, request id); only the same principal can cancel it (SI-3: no cross-actor cancel).
 * The principal is the bearer token the gate verified, read from the request itself: `AuthInfo.token` is whatever
 * the app's verifier returned, and a verifier that leaves it out must not put every caller under one key.
 */
export function createLegacyCancellation() {
  const inFlight = new Map<string, AbortController>();
  const keyOf = (request: Request, authInfo: AuthInfo | undefined, id: unknown) => `${authInfo === undefined ? "" : verifiedToken(request)}\u0000${JSON.stringify(id)}`;

  return {
    /** A request whose signal also aborts on the principal's `notifications/cancelled` for `id`; `release` after the answer. */
    track(request: Request, body: string, authInfo: AuthInfo | undefined, id: unknown): { request: Request; release: () => void } {
      const key = keyOf(request, authInfo, id);
      const controller = new AbortController();
      inFlight.set(key, controller);
      // The original body is already read: the copy carries its text (the SDK uses the parse we hand it).
      const signal = AbortSignal.any([request.signal, controller.signal]);
      const tracked = new Request(request.url, { method: request.method, headers: request.headers, body, signal });
      return { request: tracked, release: () => inFlight.get(key) === controller && inFlight.delete(key) };
    },
    /** Aborts the principal's request named by the notification; unknown ids are ignored, as the spec allows. */
    cancel(request: Request, authInfo: AuthInfo | undefined, requestId: unknown): void {
      inFlight.get(keyOf(request, authInfo, requestId))?.abort();
    },
    /** Aborts every in-flight legacy call: the SDK's close() reaches only 2026-07-28 exchanges. */
    abortAll(): void {
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
    },
  };
}

/** The token exactly as the SDK's `verifyBearerToken` extracted it for the verifier (`Bearer <token>`). */
function verifiedToken(request: Request): string {
  return (request.headers.get("authorization") ?? "").split(" ")[1] ?? "";
}

/** The single JSON-RPC message of a legacy body, or undefined for a batch or anything else. */
export function singleMessage(body: unknown): { id?: unknown; method?: unknown; params?: { requestId?: unknown; _meta?: Record<string, unknown> } } | undefined {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as never) : undefined;
}
