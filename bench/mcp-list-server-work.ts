// The server's own work per tools/list (issue 49): our governed v2 endpoint against the floor, a low-level v2 Server
// answering with one canned copy of our listing, both handed the very request a real client sent (captured once per
// protocol era), timed as this process's CPU per request with no client or socket in the way. The end-to-end rows
// (mcp-v2.ts) carry the client's work too, several times the server's, and so move by more than the difference.
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { createMcpHandler, Server as LowLevelServer, type ListToolsResult } from "@modelcontextprotocol/server";
import { createAgentRuntime } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { paired, stat, type RatioStat } from "./invoke-path.js";
import { benchGovernance, toolSchemas } from "./mcp-v2-servers.js";

type Fetcher = { fetch(request: Request): Promise<Response> };
type Captured = { body: string; headers: [string, string][] };

const URL_ = new URL("http://127.0.0.1/mcp");

/** Connects a real client of `era` to `handler` in process and returns the body and headers of its tools/list. */
async function captureList(era: "modern" | "legacy", handler: Fetcher): Promise<{ request: Captured; listing: ListToolsResult }> {
  let request: Captured | undefined;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const sent = new Request(input, init);
    const body = sent.method === "POST" ? await sent.clone().text() : "";
    if (body.includes('"tools/list"')) request = { body, headers: [...sent.headers] };
    return handler.fetch(sent);
  };
  const client =
    era === "modern"
      ? new ModernClient({ name: "bench", version: "0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } })
      : new LegacyClient({ name: "bench", version: "0" });
  await client.connect((era === "modern" ? new ModernHttp(URL_, { fetch }) : new LegacyHttp(URL_, { fetch })) as never);
  const listing = (await client.listTools()) as ListToolsResult;
  await client.close();
  if (request === undefined) throw new Error(`bench: the ${era} client sent no tools/list`);
  return { request, listing: JSON.parse(JSON.stringify({ tools: listing.tools })) as ListToolsResult };
}

async function cpuPerRequest(handler: Fetcher, request: Captured, iterations: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const response = await handler.fetch(new Request(URL_, { method: "POST", body: request.body, headers: request.headers }));
    if (response.status !== 200) throw new Error(`bench: tools/list answered ${response.status}`);
    await response.text();
  }
  const spent = process.cpuUsage(start);
  return ((spent.user + spent.system) * 1e3) / iterations;
}

export async function mcpListServerWork(options: { rounds: number; lists: number }): Promise<{ era: string; stat: RatioStat }[]> {
  const runtime = createAgentRuntime({ governance: benchGovernance(toolSchemas()) });
  const actor = { id: "bench", kind: "service" as const };
  const ours = createMCPHandler(runtime, { allowUnauthenticated: true, createContext: () => ({ actor, context: {} }) });
  let canned: ListToolsResult | undefined;
  const floor = createMcpHandler(() => {
    const server = new LowLevelServer({ name: "floor", version: "0.0.0" }, { capabilities: { tools: { listChanged: false } } });
    server.setRequestHandler("tools/list", () => canned!);
    return server;
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  const rows: { era: string; stat: RatioStat }[] = [];
  try {
    for (const era of ["modern", "legacy"] as const) {
      const { request, listing } = await captureList(era, ours);
      canned = listing;
      const measure = (handler: Fetcher) => () => {
        gc?.();
        return cpuPerRequest(handler, request, options.lists);
      };
      const [s, b] = await paired(measure(ours), measure(floor), options.rounds);
      rows.push({ era: era === "modern" ? "2026-07-28" : "2025-11-25", stat: stat(s, b) });
    }
  } finally {
    await ours.close();
    await floor.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { era, stat: s } of await mcpListServerWork({ rounds: 20, lists: 100 })) {
    console.log(`${era}: server CPU per tools/list ${(s.subject / 1e3).toFixed(0)} µs vs the floor's ${(s.baseline / 1e3).toFixed(0)} µs, ${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`);
  }
}
