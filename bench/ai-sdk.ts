// What @orpc-agent/ai-sdk costs on top of discovery: toAISDKTools at 300 capabilities against a describe("aiSdk", …)
// with the same actor and context (budget ≤ 1.15×). The adapter asks describe for shared, frozen input schemas
// (no copy per capability), so its own work is also reported against that cheaper describe.
import { createAgentRuntime } from "@orpc-agent/core";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { governanceWithDiscoveryPolicy } from "./fixtures.js";
import { interleave, timeSequential } from "./harness.js";

export type AISDKBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number };

export async function aiSdkCost(options: { rounds: number; iterations: number }): Promise<AISDKBenchRow[]> {
  const runtime = createAgentRuntime({ governance: governanceWithDiscoveryPolicy(300) });
  const actor = { id: "bench", kind: "service" as const };
  const context = {};
  const tools = await toAISDKTools(runtime, { actor, context });
  if (Object.keys(tools).length !== 300) throw new Error(`bench: toAISDKTools built ${Object.keys(tools).length} tools, expected 300`);
  const m = await interleave(
    {
      describe: () => timeSequential(() => runtime.describe("aiSdk", { actor, context }), options.iterations),
      describeShared: () => timeSequential(() => runtime.describe("aiSdk", { actor, context, inputSchemas: "shared" }), options.iterations),
      toAISDKTools: () => timeSequential(() => toAISDKTools(runtime, { actor, context }), options.iterations),
    },
    options.rounds,
  );
  const tools300 = m.toAISDKTools!;
  return [
    { path: "toAISDKTools at 300 vs describe", subjectNs: tools300, baselineNs: m.describe!, ratio: tools300 / m.describe! },
    { path: 'toAISDKTools at 300 vs describe, inputSchemas "shared"', subjectNs: tools300, baselineNs: m.describeShared!, ratio: tools300 / m.describeShared! },
  ];
}
