// @orpc-agent/mcp's v2 endpoint against a hand-written v2 McpServer exposing the same 100 tools (same zod schemas,
// a trivial handler returning the same result), both served by the SDK's createMcpHandler through the SDK's Node
// adapter on loopback HTTP and driven by real clients: the v2 Client (2026-07-28) and the v1 Client (2025-11-25).
// Both advertise the result envelope as every tool's outputSchema (issue 24).
// Budgets (issue 49): tools/call ≤ 1.25× the hand-written server; tools/list ≤ 1.1× the floor, a low-level v2 Server
// answering with one canned copy of our listing: the same bytes through the same SDK and client with no work per
// request, the least any server listing these tools can cost (ours and the floor against hand-written: reported).
//   node --conditions=@orpc-agent/source --import tsx bench/mcp-v2.ts   (from the repository root)
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { toNodeHandler as sdkToNodeHandler } from "@modelcontextprotocol/node";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createMcpHandler, Server as LowLevelServer, type ListToolsResult } from "@modelcontextprotocol/server";
import { createAgentRuntime } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { toNodeRequestListener } from "@orpc-agent/mcp/node";
import { interleave, timeSequential } from "./harness.js";
import { paired, stat } from "./invoke-path.js";
import { benchGovernance, closeListening, handWrittenMcpHandler, listen, TOOLS as N, toolSchemas } from "./mcp-v2-servers.js";

type AnyClient = { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>; listTools(): Promise<{ tools: unknown[] }>; close(): Promise<void> };

async function connect(era: "modern" | "legacy", url: URL): Promise<AnyClient> {
  if (era === "modern") {
    const client = new ModernClient({ name: "bench", version: "0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new ModernHttp(url));
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient({ name: "bench", version: "0" });
  await client.connect(new LegacyHttp(url));
  return client as unknown as AnyClient;
}

export async function mcpV2Cost(options: { rounds: number; calls: number; lists: number }) {
  const schemas = toolSchemas();
  const runtime = createAgentRuntime({ governance: benchGovernance(schemas) });
  const actor = { id: "bench", kind: "service" as const };
  const ours = createMCPHandler(runtime, { allowUnauthenticated: true, createContext: () => ({ actor, context: {} }) });
  const hand = handWrittenMcpHandler(schemas);
  let canned: ListToolsResult | undefined;
  const floor = createMcpHandler(() => {
    const server = new LowLevelServer({ name: "floor", version: "0.0.0" }, { capabilities: { tools: { listChanged: false } } });
    server.setRequestHandler("tools/list", () => canned!);
    return server;
  });
  const oursHttp = await listen(toNodeRequestListener(ours));
  const handHttp = await listen(sdkToNodeHandler(hand));
  const floorHttp = await listen(sdkToNodeHandler(floor));
  // `spread`: the p25–p75 of the per-round ratios, where the ratio is their median.
  const rows: { era: string; path: string; subjectUs: number; baselineUs: number; ratio: number; spread?: [number, number] }[] = [];
  try {
    for (const era of ["modern", "legacy"] as const) {
      const [oc, hc, fc] = [await connect(era, oursHttp.url), await connect(era, handHttp.url), await connect(era, floorHttp.url)];
      const call = { name: "g0_c0", arguments: { id: "x" } };
      const [la, lb] = [await oc.listTools(), await hc.listTools()];
      if (la.tools.length !== N || lb.tools.length !== N) throw new Error(`bench: lists have ${la.tools.length} and ${lb.tools.length} tools`);
      canned = JSON.parse(JSON.stringify({ tools: la.tools })) as ListToolsResult;
      await fc.listTools();
      const m = await interleave(
        {
          oursCall: () => timeSequential(() => oc.callTool(call), options.calls),
          handCall: () => timeSequential(() => hc.callTool(call), options.calls),
          oursList: () => timeSequential(() => oc.listTools(), options.lists),
          handList: () => timeSequential(() => hc.listTools(), options.lists),
        },
        options.rounds,
        // The hand-written 2025-era list leaves 20× the garbage of ours: collected before each subject.
        { collect: true },
      );
      // Ours against the floor: the two lists differ by a fraction of the client's own work, so they are paired
      // back to back in alternating order, each block after a full GC, and judged by the median per-round ratio.
      const collected = (fn: () => Promise<number>) => () => {
        (globalThis as { gc?: () => void }).gc?.();
        return fn();
      };
      const [oursLists, floorLists] = await paired(
        collected(() => timeSequential(() => oc.listTools(), options.lists)),
        collected(() => timeSequential(() => fc.listTools(), options.lists)),
        options.rounds * 2,
      );
      const vsFloor = stat(oursLists, floorLists);
      const label = era === "modern" ? "2026-07-28 (v2 Client)" : "2025-11-25 (v1 Client)";
      rows.push({ era: label, path: "tools/call", subjectUs: m.oursCall! / 1e3, baselineUs: m.handCall! / 1e3, ratio: m.oursCall! / m.handCall! });
      rows.push({ era: label, path: `tools/list (${N} tools)`, subjectUs: m.oursList! / 1e3, baselineUs: m.handList! / 1e3, ratio: m.oursList! / m.handList! });
      rows.push({ era: label, path: "tools/list floor", subjectUs: vsFloor.baseline / 1e3, baselineUs: m.handList! / 1e3, ratio: vsFloor.baseline / m.handList! });
      rows.push({ era: label, path: "tools/list vs floor", subjectUs: vsFloor.subject / 1e3, baselineUs: vsFloor.baseline / 1e3, ratio: vsFloor.median, spread: [vsFloor.min, vsFloor.max] });
      for (const client of [oc, hc, fc]) await client.close();
    }
  } finally {
    await ours.close();
    await hand.close();
    await floor.close();
    for (const { server } of [oursHttp, handHttp, floorHttp]) closeListening(server);
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await mcpV2Cost({ rounds: 7, calls: 200, lists: 40 });
  for (const row of rows) {
    const spread = row.spread === undefined ? "" : ` (${row.spread[0].toFixed(2)}–${row.spread[1].toFixed(2)})`;
    console.log(`${row.era.padEnd(24)} ${row.path.padEnd(22)} ours ${row.subjectUs.toFixed(0).padStart(6)} µs  hand-written ${row.baselineUs.toFixed(0).padStart(6)} µs  ratio ${row.ratio.toFixed(2)}${spread}`);
  }
}
