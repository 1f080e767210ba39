import type { AuthInfo } from "@modelcontextprotocol/server";
import { principalOfRequest } from "../server/identity.js";
import { createInFlightCalls, type InFlightCall } from "../server/in-flight-calls.js";
import type { MCPOptions } from "../server/options.js";

export type LegacyCancellation = ReturnType<typeof createLegacyCancellation>;

/**
 * 2025-era cancellation on a stateless endpoint: the client sends `notifications/cancelled` as its own POST, which
 * the SDK serves on a fresh instance that never saw the call. Each in-flight legacy `tools/call` is kept with the
 * principal the governed server resolved for it, and a cancellation aborts it only when `createContext` resolves the
 * cancelling request to that same principal (SI-3). Never the bearer text: two principals can share it (one gateway
 * token), or have none (`allowUnauthenticated` behind an authenticating proxy).
 */
export function createLegacyCancellation<TContext>(options: MCPOptions<TContext>) {
  const calls = createInFlightCalls();
  // The governed server finds its call by the request the SDK hands it (`ctx.http.req`).
  const byRequest = new WeakMap<Request, InFlightCall>();

  return {
    /** A request whose signal also aborts on its principal's `notifications/cancelled` for `id`; `release` after the answer. */
    track(request: Request, body: string, id: unknown): { request: Request; release: () => void } {
      const controller = new AbortController();
      const call = calls.arrive(id, () => controller.abort());
      // The original body is already read: the copy carries its text (the SDK uses the parse we hand it).
      const signal = AbortSignal.any([request.signal, controller.signal]);
      const tracked = new Request(request.url, { method: request.method, headers: request.headers, body, signal });
      byRequest.set(tracked, call);
      return { request: tracked, release: () => call.release() };
    },
    /** Called by the governed server once it knows who made the call this request carries (`undefined`: refused). */
    claim(request: Request | undefined, principal: string | undefined): void {
      if (request !== undefined) byRequest.get(request)?.claim(principal);
    },
    /** Aborts the caller's own request named by the notification; another principal's id is ignored like an unknown one. */
    async cancel(authInfo: AuthInfo | undefined, requestId: unknown): Promise<void> {
      const principal = await principalOfRequest(options, authInfo === undefined ? { era: "legacy" } : { era: "legacy", authInfo });
      if (principal !== undefined) await calls.cancel(principal, requestId);
    },
    /** Aborts every in-flight legacy call: the SDK's close() reaches only 2026-07-28 exchanges. */
    abortAll(): void {
      calls.abortAll();
    },
  };
}

/** The single JSON-RPC message of a legacy body, or undefined for a batch or anything else. */
export function singleMessage(body: unknown): { id?: unknown; method?: unknown; params?: { requestId?: unknown; _meta?: Record<string, unknown> } } | undefined {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as never) : undefined;
}
