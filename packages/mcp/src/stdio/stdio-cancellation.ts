import type { JSONRPCMessage, Server, ServerContext, Transport } from "@modelcontextprotocol/server";
import { createInFlightCalls, type InFlightCall } from "../server/in-flight-calls.js";

/**
 * stdio: the SDK aborts whatever request id a `notifications/cancelled` names. A stdio connection has no credential,
 * so `createContext` judges every message as it arrives (a host may switch its signed-in user); a cancellation is a
 * message like any other, and reaches the SDK only when it resolves to the principal that made the call (SI-3). It
 * then reaches it unchanged, so the SDK's own cancellation runs (the handler's signal aborts, no answer is sent).
 * Returns how the `tools/call` handler names its call's principal; other requests are not cancellable here.
 */
export function bindStdioCancellation(server: Server, judge: () => Promise<string | undefined>): (ctx: ServerContext, principal: string | undefined) => void {
  // A matching cancellation is handed on as it came.
  const calls = createInFlightCalls<{ message: JSONRPCMessage; extra: Parameters<NonNullable<Transport["onmessage"]>>[1] }>();
  const byId = new Map<string, InFlightCall>();
  const keyOf = (id: unknown) => JSON.stringify(id) ?? "";
  const forget = (id: unknown) => {
    const key = keyOf(id);
    byId.get(key)?.release();
    byId.delete(key);
  };

  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (deliver === undefined) return;
    const send = transport.send.bind(transport);
    // An answered call is no longer in flight (its answer names its id).
    transport.send = (message, options) => {
      const { id, method } = message as { id?: unknown; method?: unknown };
      if (id !== undefined && method === undefined) forget(id);
      return send(message, options);
    };
    transport.onmessage = (message, extra) => {
      const m = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
      if (m.method === "notifications/cancelled" && m.id === undefined) {
        void judge()
          .then((principal) => (principal === undefined ? undefined : calls.cancel(principal, m.params?.requestId, { message, extra })))
          .catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))));
        return;
      }
      if (m.method === "tools/call" && m.id !== undefined) {
        const id = m.id;
        forget(id);
        const call = calls.arrive(id, (cancellation) => {
          forget(id);
          deliver.call(transport, cancellation.message, cancellation.extra);
        });
        byId.set(keyOf(id), call);
      }
      deliver.call(transport, message, extra);
    };
  };
  return (ctx, principal) => byId.get(keyOf(ctx.mcpReq.id))?.claim(principal);
}
