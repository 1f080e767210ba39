// The capabilities the MCP progress tests call: progress reports, streams (oRPC event iterators), a stream that fails
// after its first event, and one whose event is too long for a message. Most wait, after their last update, until the
// client calls `gate_open`: a client opens it once it has seen that update, so no test depends on how a client
// orders a notification that arrives in the same read as the result (both SDK clients run notification handlers a
// microtask late, and drop a progress notification read together with its result).
import { eventIterator } from "@orpc/server";
import { z } from "zod";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta, type AgentRuntime } from "@orpc-agent/core";
import { ap } from "../support/orpc.js";

const meta = (description: string) => agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low" } satisfies AgentMeta);
const row = z.object({ row: z.number(), text: z.string().optional() });

export function createProgressApp(): { runtime: AgentRuntime<{ tenant: string }> } {
  let open!: () => void;
  let gate = new Promise<void>((resolve) => (open = resolve));
  const opened = () => gate;

  const registry = createCapabilityRegistry({
    gate: {
      open: ap.meta(meta("Lets the waiting capability finish.")).handler(() => {
        open();
        gate = new Promise<void>((resolve) => (open = resolve));
        return { opened: true };
      }),
    },
    jobs: {
      // Ends at once: the runtime delivers the last report just before the result.
      steps: ap
        .input(z.object({ steps: z.number().int().min(1).max(50) }))
        .meta(meta("Counts steps, reporting each."))
        .handler(({ input, context }) => {
          for (let step = 1; step <= input.steps; step += 1) context.agent!.reportProgress({ progress: step, total: input.steps, message: `step ${step}` });
          return { steps: input.steps };
        }),
      // Reports every step at once (the runtime throttles them), then waits for the gate.
      gated: ap
        .input(z.object({ steps: z.number().int().min(1).max(50) }))
        .meta(meta("Counts steps, reporting each, then waits."))
        .handler(async ({ input, context }) => {
          const wait = opened();
          for (let step = 1; step <= input.steps; step += 1) context.agent!.reportProgress({ progress: step, total: input.steps, message: `step ${step}` });
          await wait;
          return { steps: input.steps };
        }),
    },
    exports: {
      rows: ap
        .input(z.object({ count: z.number().int().min(0).max(20), wait: z.boolean().default(true) }))
        .output(eventIterator(row))
        .meta(meta("Streams the export's rows."))
        .handler(async function* ({ input }) {
          const wait = opened();
          for (let n = 1; n <= input.count; n += 1) yield { row: n };
          if (input.wait && input.count > 0) await wait;
        }),
      broken: ap
        .output(eventIterator(row))
        .meta(meta("Streams one row, waits, then fails."))
        .handler(async function* () {
          const wait = opened();
          yield { row: 1 };
          await wait;
          throw new Error("disk on fire");
        }),
      wide: ap
        .output(eventIterator(row))
        .meta(meta("Streams one row with a long text, then waits."))
        .handler(async function* () {
          const wait = opened();
          yield { row: 1, text: "é".repeat(2_000) };
          await wait;
        }),
    },
  });
  return { runtime: createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry }) }) };
}
