// What @orpc-agent/ai-sdk adds on top of discovery: toAISDKTools at 300 capabilities against the
// runtime.describe("aiSdk", …) it makes, with the same actor and context (budget ≤ 1.15×).
import { createAgentRuntime } from "@orpc-agent/core";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { governanceWithDiscoveryPolicy } from "./fixtures.js";
import { interleave, timeSequential } from "./harness.js";

export type AISDKBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number };

export async function aiSdkCost(options: { rounds: number; iterations: number }): Promise<AISDKBenchRow> {
  const runtime = createAgentRuntime({ governance: governanceWithDiscoveryPolicy(300) });
  const actor = { id: "bench", kind: "service" as const };
  const context = {};
  const tools = await toAISDKTools(runtime, { actor, context });
  if (Object.keys(tools).length !== 300) throw new Error(`bench: toAISDKTools built ${Object.keys(tools).length} tools, expected 300`);
  const m = await interleave(
    {
      describe: () => timeSequential(() => runtime.describe("aiSdk", { actor, context }), options.iterations),
      toAISDKTools: () => timeSequential(() => toAISDKTools(runtime, { actor, context }), options.iterations),
    },
    options.rounds,
  );
  return { path: "toAISDKTools at 300", subjectNs: m.toAISDKTools!, baselineNs: m.describe!, ratio: m.toAISDKTools! / m.describe! };
}
