// The governed app the MCP conformance suite calls: one capability per tool its server scenarios name
// (node_modules/@modelcontextprotocol/conformance, `conformance list --server`), under a real runtime with a
// policy, an audit sink and approvals, as an app would configure it. Tools of scenarios outside this library's
// scope (baseline.yml) are not here.
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
const meta = (description: string) =>
  agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low" } satisfies AgentMeta);

// json-schema-2020-12 reads these keywords back from tools/list: `$schema`, `$defs.address`, `additionalProperties`.
const address = z.object({ street: z.string(), city: z.string() }).partial().meta({ id: "address" });

const registry = createCapabilityRegistry({
  test_simple_text: ap.meta(meta("Returns a simple text response.")).handler(() => ({ text: "This is a simple text response for testing." })),
  test_error_handling: ap.meta(meta("Always fails.")).handler(() => {
    throw new Error("This tool intentionally returns an error for testing");
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
