// An app for the outputSchema's `data`: capabilities with and without a declared output schema (one whose output is
// redacted after validation), and handlers refusing input with details of their own.
import { z } from "zod";
import { agentMeta, CapabilityError, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta, type AgentRuntime } from "@orpc-agent/core";
import { ap } from "../support/orpc.js";

/** Capabilities with and without an output schema, and handlers refusing input with details of their own. */
export function createTypedApp(): { runtime: AgentRuntime<{ tenant: string }> } {
  const meta = (description: string, overrides: Partial<AgentMeta> = {}) => agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low", ...overrides } satisfies AgentMeta);
  const refund = z.object({ refundId: z.string(), amountCents: z.number().int(), note: z.string().optional() });
  const registry = createCapabilityRegistry({
    refunds: {
      create: ap.output(refund).meta(meta("Create a refund.")).handler(() => ({ refundId: "r_1", amountCents: 500 })),
      // Redaction reshapes the output after the procedure validated it: the schema no longer describes `data`.
      masked: ap
        .output(refund)
        .meta(meta("A refund, masked.", { redact: { output: () => ({ refundId: "[redacted]" }) } }))
        .handler(() => ({ refundId: "r_2", amountCents: 700 })),
      plain: ap.meta(meta("No declared output.")).handler(() => ({ anything: [1, "two"] })),
    },
    forms: {
      own: ap.meta(meta("Refuses with details of its own.")).handler(() => {
        throw new CapabilityError({ code: "INPUT_INVALID", exposeToModel: true, publicMessage: "Row 7 is invalid.", details: { row: 7 } });
      }),
      issues: ap.meta(meta("Refuses with issues that carry more than path and message.")).handler(() => {
        throw new CapabilityError({ code: "INPUT_INVALID", exposeToModel: true, details: { issues: [{ path: ["amount"], message: "Too large.", input: 1e9 }] } });
      }),
    },
  });
  return { runtime: createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry }) }) };
}
