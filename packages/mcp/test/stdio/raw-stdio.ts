// A stdio connection spoken as raw JSON-RPC over the SDK's in-memory pair, for attacks that need exact messages
// (a `notifications/cancelled` for a chosen id) rather than what an SDK client would send.
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { AgentRuntime } from "@orpc-agent/core";
import { serveMCPStdio, type MCPStdioOptions } from "../../src/stdio/serve-stdio.js";
import { closeAfterTest } from "../support/cleanup.js";

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

export type RawStdio = {
  /** Sends a request and resolves with its answer. */
  request(id: number, method: string, params?: Record<string, unknown>): Promise<JSONRPCMessage>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Every notification the server sent, in order. */
  notifications: { method: string; params?: unknown }[];
};

/**
 * `serveMCPStdio` on one end of the pair; the other end opens the connection in `era` (a 2025 `initialize` declaring
 * `capabilities`, or nothing on 2026-07-28).
 */
export async function connectRawStdio<TContext>(
  runtime: AgentRuntime<TContext>,
  options: MCPStdioOptions<TContext>,
  era: "legacy" | "modern",
  capabilities: Record<string, unknown> = {},
): Promise<RawStdio> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveMCPStdio(runtime, { ...options, transport: serverSide });
  closeAfterTest(() => handle.close());
  const waiting = new Map<unknown, (message: JSONRPCMessage) => void>();
  const notifications: RawStdio["notifications"] = [];
  clientSide.onmessage = (message) => {
    const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
    if (id !== undefined && method === undefined) waiting.get(id)?.(message);
    if (id === undefined && typeof method === "string") notifications.push({ method, params });
  };
  await clientSide.start();
  // A 2026-07-28 message carries its revision in every request's envelope.
  const meta = era === "modern" ? { _meta: MODERN_META } : {};
  const connection: RawStdio = {
    request: (id, method, params = {}) =>
      new Promise<JSONRPCMessage>((resolve) => {
        waiting.set(id, resolve);
        void clientSide.send({ jsonrpc: "2.0", id, method, params: { ...params, ...meta } } as JSONRPCMessage);
      }),
    notify: (method, params = {}) => clientSide.send({ jsonrpc: "2.0", method, params } as JSONRPCMessage),
    notifications,
  };
  if (era === "legacy") {
    await connection.request(0, "initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } });
    await connection.notify("notifications/initialized");
  }
  return connection;
}
