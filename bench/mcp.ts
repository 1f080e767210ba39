// @orpc-agent/mcp against a hand-written McpServer exposing the same tools (same zod schemas, so the same
// JSON schemas, and a trivial handler returning the same result), both driven by the SDK's Client over
// InMemoryTransport: tools/call on one tool (budget ≤ 1.2×) and tools/list at 100 tools (budget ≤ 0.3×).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, allow } from "@orpc-agent/core";
import { createMCPServer } from "@orpc-agent/mcp/v1";
import { makeDefs, makeSchema } from "./fixtures.js";
import { interleave, timeSequential } from "./harness.js";

export type MCPBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number };

const N = 100;

async function connectedClient(connect: (transport: InMemoryTransport) => Promise<void>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connect(serverSide);
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(clientSide);
  return client;
}

export async function mcpCost(options: { rounds: number; calls: number; lists: number }): Promise<MCPBenchRow[]> {
  const schemas = Array.from({ length: N }, (_, i) => makeSchema(i));
  const registry = createCapabilityRegistry(makeDefs(N, schemas));
  const governance = defineGovernance({ registry, policies: [definePolicy("visible", () => allow(), { phases: ["discovery"] })] });
  const runtime = createAgentRuntime({ governance });
  const actor = { id: "bench", kind: "service" as const };
  const ours = createMCPServer(runtime, { createContext: () => ({ actor, context: {} }) });
  const oursClient = await connectedClient((t) => ours.connect(t));

  // makeDefs puts capability i in group g{i % 10} as c{i}; the default MCP naming maps "." to "_".
  // The hints our server derives for a `sideEffect: "read"` capability, so both lists carry the same fields.
  const annotations = { readOnlyHint: true, openWorldHint: false };
  const handWritten = new McpServer({ name: "hand-written", version: "0.0.0" });
  for (let i = 0; i < N; i++) {
    handWritten.registerTool(`g${i % 10}_c${i}`, { description: `Capability ${i}.`, inputSchema: schemas[i]!.shape, annotations }, () => {
      const text = JSON.stringify({ status: "ok", data: { ok: true } });
      return { content: [{ type: "text" as const, text }], structuredContent: JSON.parse(text) as Record<string, unknown>, isError: false };
    });
  }
  const handClient = await connectedClient((t) => handWritten.connect(t));

  try {
    const call = { name: "g0_c0", arguments: { id: "x" } };
    const [a, b] = [await oursClient.callTool(call), await handClient.callTool(call)];
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`bench: MCP results differ: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    const [la, lb] = [await oursClient.listTools(), await handClient.listTools()];
    if (la.tools.length !== N || lb.tools.length !== N) throw new Error(`bench: MCP lists have ${la.tools.length} and ${lb.tools.length} tools`);
    // The SDK stamps draft-07 as `$schema`, core's descriptors 2020-12; everything else must match.
    const body = ({ $schema: _dialect, ...rest }: Record<string, unknown>) => JSON.stringify(rest);
    const theirs = new Map(lb.tools.map((t) => [t.name, body(t.inputSchema)]));
    const differing = la.tools.find((t) => theirs.get(t.name) !== body(t.inputSchema));
    if (differing !== undefined) console.warn(`bench: MCP input schema of ${differing.name} differs between servers`);
    const m = await interleave(
      {
        oursCall: () => timeSequential(() => oursClient.callTool(call), options.calls),
        handCall: () => timeSequential(() => handClient.callTool(call), options.calls),
        oursList: () => timeSequential(() => oursClient.listTools(), options.lists),
        handList: () => timeSequential(() => handClient.listTools(), options.lists),
      },
      options.rounds,
    );
    return [
      { path: "MCP tools/call, InMemoryTransport", subjectNs: m.oursCall!, baselineNs: m.handCall!, ratio: m.oursCall! / m.handCall! },
      { path: `MCP tools/list at ${N}, InMemoryTransport`, subjectNs: m.oursList!, baselineNs: m.handList!, ratio: m.oursList! / m.handList! },
    ];
  } finally {
    await oursClient.close();
    await handClient.close();
  }
}
