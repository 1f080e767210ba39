// @orpc-agent/mcp against a hand-written SDK v2 McpServer doing the same work: the same zod schemas (so the same
// JSON schemas), the result envelope as every tool's outputSchema, the same annotations, and a trivial handler
// returning the same result and structuredContent. Both are served by the SDK's own `serveStdio` on one end of its
// InMemoryTransport pair and driven by the v2 Client on the other, so the rows measure the per-request server work
// without HTTP: tools/call on one tool (budget ≤ 1.25×, issue 49) and tools/list at 100 tools (reported).
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createAgentRuntime } from "@orpc-agent/core";
import { serveMCPStdio } from "@orpc-agent/mcp";
import { interleave, timeSequential } from "./harness.js";
import { benchGovernance, envelopeSchema, TOOLS as N, toolSchemas } from "./mcp-v2-servers.js";

export type MCPBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number };

type Served = { client: Client; close(): Promise<void> };

async function served(serve: (transport: InMemoryTransport) => { close(): Promise<void> }): Promise<Served> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serve(serverSide);
  const client = new Client({ name: "bench", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await handle.close();
    },
  };
}

/** The hand-written server: what a team would write by hand for the same 100 tools. */
function handWrittenServer(schemas: ReturnType<typeof toolSchemas>): McpServer {
  // The hints our server derives for a `sideEffect: "read"` capability, so both lists carry the same fields.
  const annotations = { readOnlyHint: true, openWorldHint: false };
  const outputSchema = envelopeSchema();
  const server = new McpServer({ name: "hand-written", version: "0.0.0" });
  for (let i = 0; i < N; i++) {
    // makeDefs puts capability i in group g{i % 10} as c{i}; the default MCP naming maps "." to "_".
    server.registerTool(`g${i % 10}_c${i}`, { description: `Capability ${i}.`, inputSchema: schemas[i]!, outputSchema, annotations }, () => {
      const text = JSON.stringify({ status: "ok", data: { ok: true } });
      return { content: [{ type: "text" as const, text }], structuredContent: JSON.parse(text) as Record<string, unknown>, isError: false };
    });
  }
  return server;
}

export async function mcpCost(options: { rounds: number; calls: number; lists: number }): Promise<MCPBenchRow[]> {
  const schemas = toolSchemas();
  const runtime = createAgentRuntime({ governance: benchGovernance(schemas) });
  const actor = { id: "bench", kind: "service" as const };
  const ours = await served((transport) => serveMCPStdio(runtime, { transport, createContext: () => ({ actor, context: {} }) }));
  const hand = await served((transport) => serveStdio(() => handWrittenServer(schemas), { transport }));

  try {
    const call = { name: "g0_c0", arguments: { id: "x" } };
    // Everything but `_meta`, which names each server, must match.
    const answer = async (client: Client) => JSON.stringify({ ...(await client.callTool(call)), _meta: undefined });
    const [a, b] = [await answer(ours.client), await answer(hand.client)];
    if (a !== b) throw new Error(`bench: MCP results differ: ${a} vs ${b}`);
    const [la, lb] = [await ours.client.listTools(), await hand.client.listTools()];
    if (la.tools.length !== N || lb.tools.length !== N) throw new Error(`bench: MCP lists have ${la.tools.length} and ${lb.tools.length} tools`);
    // The same input schemas and hints, and an output schema on every tool (ours is the envelope's JSON Schema, the
    // hand-written one the zod envelope the SDK converts), so both servers do the same work per request.
    const advertised = (t: (typeof la.tools)[number]) => JSON.stringify([{ ...t.inputSchema, $schema: undefined }, t.annotations, t.outputSchema !== undefined]);
    const theirs = new Map(lb.tools.map((t) => [t.name, advertised(t)]));
    const differing = la.tools.find((t) => theirs.get(t.name) !== advertised(t));
    if (differing !== undefined) throw new Error(`bench: MCP tool ${differing.name} is advertised differently by the two servers`);
    const m = await interleave(
      {
        oursCall: () => timeSequential(() => ours.client.callTool(call), options.calls),
        handCall: () => timeSequential(() => hand.client.callTool(call), options.calls),
        oursList: () => timeSequential(() => ours.client.listTools(), options.lists),
        handList: () => timeSequential(() => hand.client.listTools(), options.lists),
      },
      options.rounds,
    );
    return [
      { path: "MCP tools/call, InMemoryTransport", subjectNs: m.oursCall!, baselineNs: m.handCall!, ratio: m.oursCall! / m.handCall! },
      { path: `MCP tools/list at ${N}, InMemoryTransport`, subjectNs: m.oursList!, baselineNs: m.handList!, ratio: m.oursList! / m.handList! },
    ];
  } finally {
    await ours.close();
    await hand.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes("--quick");
  for (const row of await mcpCost({ rounds: quick ? 3 : 9, calls: quick ? 500 : 2_000, lists: quick ? 20 : 100 })) {
    console.log(`${row.path}: ${(row.subjectNs / 1e3).toFixed(1)} µs vs ${(row.baselineNs / 1e3).toFixed(1)} µs, ${row.ratio.toFixed(2)}×`);
  }
}
