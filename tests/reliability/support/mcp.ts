// The MCP HTTP endpoint under test: createMCPHttpHandler with bearer verification, mounted with toNodeRequestListener on
// loopback, and a raw JSON-RPC session (initialize, then calls with the session id) as any MCP client would send.
import { createMCPHttpHandler, toNodeRequestListener } from "@orpc-agent/mcp/v1";
import type { AgentRuntime } from "@orpc-agent/core";
import { dana, priya } from "./app.js";
import { listen, post, type Listening, type RawResponse } from "./http.js";
import type { Agent } from "node:http";

export const TOKENS: Record<string, typeof dana> = { "tok-dana": dana, "tok-priya": priya };
const PROTOCOL_VERSION = "2025-11-25";

export async function serveMcp(runtime: AgentRuntime<Record<string, unknown>>, options: { sessions?: "stateful" | "stateless" } = {}): Promise<Listening> {
  const handler = createMCPHttpHandler(runtime, {
    verifyToken: (token) => (token in TOKENS ? { token, clientId: "reliability", scopes: ["mcp"], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : null),
    createContext: (session) => {
      const actor = TOKENS[session.authInfo?.token ?? ""];
      return actor ? { actor, context: { tenant: "t1" } } : null;
    },
    ...(options.sessions ? { sessions: options.sessions } : {}),
  });
  return listen(toNodeRequestListener(handler));
}

const baseHeaders = (token = "tok-dana"): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: `Bearer ${token}`,
});

export type McpSession = { headers: Record<string, string>; send(body: string): Promise<RawResponse> };

/** Opens a stateful session: initialize, then `notifications/initialized`; later requests carry the session id. */
export async function openSession(port: number, agent: Agent, token = "tok-dana"): Promise<McpSession> {
  const init = await post(
    port,
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "reliability", version: "1" } } }),
    baseHeaders(token),
    { agent },
  );
  const sessionId = init.headers["mcp-session-id"];
  if (init.status !== 200 || typeof sessionId !== "string") throw new Error(`initialize failed: ${init.status} ${init.body}`);
  const headers = { ...baseHeaders(token), "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION };
  const initialized = await post(port, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers, { agent });
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: ${initialized.status}`);
  return { headers, send: (body) => post(port, body, headers, { agent }) };
}
