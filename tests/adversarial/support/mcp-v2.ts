// Raw HTTP against the v2 endpoint (createMCPHandler on loopback): bodies and headers for both eras, a counted
// scoped tool, and the JSON-RPC message out of a JSON or SSE answer. The attacks speak bytes, not SDK clients.
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentPolicy } from "@orpc-agent/core";
import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { ap } from "../../../packages/mcp/test/support/orpc.js";
import { listenModern, nowInSeconds } from "../../../packages/mcp/test/support/handler.js";

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
export const LEGACY_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
export const modernHeaders = (name: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": name,
});

export type Era = "modern" | "legacy";
export const ERAS: Era[] = ["modern", "legacy"];

export const callMessage = (name: string, era: Era, id: number | string = 7) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, ...(era === "modern" && { _meta: MODERN_META }) },
});
export const headersFor = (name: string, era: Era) => (era === "modern" ? modernHeaders(name) : LEGACY_HEADERS);

export function post(url: URL, body: BodyInit, headers: Record<string, string>, token?: string): Promise<Response> {
  return fetch(url, { method: "POST", body, headers: { ...headers, ...(token !== undefined && { authorization: `Bearer ${token}` }) } });
}

/** The JSON-RPC message(s) of an answer, whether JSON or an SSE stream of `data:` lines. */
export async function messagesOf(response: Response): Promise<unknown[]> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return text === "" ? [] : [JSON.parse(text)].flat();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

/** Three tools: `cheap_ping` (no scope), `reports_export` and `vault_open` (both need `reports:export`); runs are counted. */
export function scopedApp(policies: AgentPolicy[] = []) {
  const runs: string[] = [];
  const scoped = (description: string) =>
    // `adapters.mcp.scopes` is read by the MCP adapter; AgentMeta does not type it yet.
    agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low", adapters: { mcp: { scopes: ["reports:export"] } } } as never);
  const registry = createCapabilityRegistry({
    cheap: { ping: ap.meta(agentMeta({ description: "Ping.", expose: { mcp: true }, sideEffect: "read", risk: "low" })).handler(() => (runs.push("cheap.ping"), { pong: true })) },
    reports: { export: ap.meta(scoped("Export the reports.")).handler(() => (runs.push("reports.export"), { exported: true })) },
    vault: { open: ap.meta(scoped("Open the vault.")).handler(() => (runs.push("vault.open"), { opened: true })) },
  });
  const runtime = createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry, policies }) });
  return { runtime, runs };
}

/** `tok-<user>` verifies with scope `mcp` only; `tok-<user>-scoped` also holds `reports:export`. */
export function serveScoped(app: ReturnType<typeof scopedApp>, overrides: Partial<MCPHandlerOptions<{ tenant: string }>> = {}) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      verifyToken: (token) => {
        const match = /^tok-([a-z]+)(-scoped)?$/.exec(token);
        if (match === null) return null;
        const scopes = match[2] === undefined ? ["mcp"] : ["mcp", "reports:export"];
        return { token, clientId: "c1", scopes, expiresAt: nowInSeconds() + 3600, resource: url };
      },
      createContext: ({ authInfo }) => {
        const user = /^tok-([a-z]+)/.exec(authInfo?.token ?? "")?.[1];
        return user === undefined ? null : { actor: { id: `u_${user}`, kind: "user" }, context: { tenant: "t1" } };
      },
      resource: url,
      ...overrides,
    } as MCPHandlerOptions<{ tenant: string }>), // an override may switch authentication mode
  );
}


/** One tool, `jobs_wait`, that runs until the test releases it or its signal aborts, and says which happened. */
export function gatedApp() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let aborted!: () => void;
  const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
  const registry = createCapabilityRegistry({
    jobs: {
      wait: ap.meta(agentMeta({ description: "Waits.", expose: { mcp: true }, sideEffect: "read", risk: "low", timeoutMs: 60_000 })).handler(async ({ signal }) => {
        started();
        const onAbort = new Promise<"aborted">((resolve) => signal?.addEventListener("abort", () => (aborted(), resolve("aborted")), { once: true }));
        return { outcome: await Promise.race([released.then(() => "released" as const), onAbort]) };
      }),
    },
  });
  return { runtime: createAgentRuntime({ governance: defineGovernance({ registry }) }), release, running, abortSeen };
}

export const cancelMessage = (requestId: unknown) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "stop" } });
