// The capabilities the MCP progress tests call: one that reports progress, one that streams (an oRPC event
// iterator), one that streams and fails after its first event, and one that streams an event too long for a message.
import { eventIterator } from "@orpc/server";
import { z } from "zod";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta, type AgentRuntime } from "@orpc-agent/core";
import { ap } from "../support/orpc.js";

const meta = (description: string) => agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low" } satisfies AgentMeta);
const row = z.object({ row: z.number(), text: z.string().optional() });

export function createProgressApp(): { runtime: AgentRuntime<{ tenant: string }> } {
  const registry = createCapabilityRegistry({
    jobs: {
      // Throttled by the runtime: some steps may be merged, the last always arrives before the result.
      steps: ap
        .input(z.object({ steps: z.number().int().min(1).max(50) }))
        .meta(meta("Counts steps, reporting each."))
        .handler(({ input, context }) => {
          for (let step = 1; step <= input.steps; step += 1) context.agent!.reportProgress({ progress: step, total: input.steps, message: `step ${step}` });
          return { steps: input.steps };
        }),
    },
    exports: {
      rows: ap
        .input(z.object({ count: z.number().int().min(0).max(20) }))
        .output(eventIterator(row))
        .meta(meta("Streams the export's rows."))
        .handler(async function* ({ input }) {
          for (let n = 1; n <= input.count; n += 1) yield { row: n };
        }),
      broken: ap
        .output(eventIterator(row))
        .meta(meta("Streams one row, then fails."))
        .handler(async function* () {
          yield { row: 1 };
          throw new Error("disk on fire");
        }),
      wide: ap
        .output(eventIterator(row))
        .meta(meta("Streams one row with a long text."))
        .handler(async function* () {
          yield { row: 1, text: "é".repeat(2_000) };
        }),
    },
  });
  return { runtime: createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry }) }) };
}
