// The governed app the MCP conformance suite calls: one capability per tool its server scenarios name
// (node_modules/@modelcontextprotocol/conformance, `conformance list --server`), under a real runtime with a
// policy, an audit sink and approvals, as an app would configure it. Tools of scenarios outside this library's
// scope (baseline.yml) are not here.
import { setTimeout as sleep } from "node:timers/promises";
import { os } from "@orpc/server";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
  type AgentMeta,
  type AgentRuntime,
} from "../../packages/core/src/index.js";

const ap = agentProcedure(os);
const PROGRESS_PACE_MS = 150;
const meta = (description: string) =>
  agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low" } satisfies AgentMeta);

// json-schema-2020-12 reads these keywords back from tools/list: `$schema`, `$defs.address`, `additionalProperties`.
const address = z.object({ street: z.string(), city: z.string() }).partial().meta({ id: "address" });

const registry = createCapabilityRegistry({
  test_simple_text: ap.meta(meta("Returns a simple text response.")).handler(() => ({ text: "This is a simple text response for testing." })),
  test_error_handling: ap.meta(meta("Always fails.")).handler(() => {
    throw new Error("This tool intentionally returns an error for testing");
  }),
  // tools-call-with-progress: 0, 50 and 100 of 100, increasing. The runtime sends at most one update per
  // `progressIntervalMs` (100 ms by default) and keeps only the latest in between, so the reports are paced wider
  // than that for each to go out on its own.
  test_tool_with_progress: ap.meta(meta("Reports progress 0, 50 and 100 of 100.")).handler(async ({ context }) => {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(PROGRESS_PACE_MS);
      context.agent!.reportProgress({ progress, total: 100 });
    }
    return { text: "Progress reported: 0, 50 and 100 of 100." };
  }),
  json_schema_2020_12_tool: ap
    .input(z.strictObject({ name: z.string().optional(), address: address.optional() }))
    .meta(meta("Tool with JSON Schema 2020-12 features"))
    .handler(({ input }) => ({ received: input })),
});

export type ConformanceApp = { runtime: AgentRuntime<{ tenant: string }>; events: AgentAuditEvent[] };

export function createConformanceApp(): ConformanceApp {
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime<{ tenant: string }>({
    governance: defineGovernance({ registry, policies: [definePolicy("conformance-allow", () => allow(), { phases: ["discovery", "invocation"] })] }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
  });
  return { runtime, events };
}
