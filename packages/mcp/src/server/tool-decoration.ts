import type { CapabilityDescriptor } from "@orpc-agent/core";
import type { ToolDecoration } from "../catalog/list-tools.js";
import { envelopeOutputSchema } from "../catalog/envelope-schema.js";
import type { PreparedGovernedServer } from "./prepare.js";

/** The namespaced `_meta` key of each tool's governance facts: facts for clients and hosts, never authority. */
const GOVERNANCE_META_KEY = "orpc-agent/governance";

/**
 * What the v2 path adds to each listed tool: the envelope's `outputSchema` (so `structuredContent` validates, every
 * status; `data` typed by the capability's output schema where it has one), `title` from
 * `meta.adapters.mcp.annotations.title`, and the governance facts under `_meta`.
 */
export function modernToolDecoration(prepared: Pick<PreparedGovernedServer<never>, "runtime" | "dataSchemas" | "approvalDemands">): ToolDecoration {
  const { runtime, dataSchemas, approvalDemands } = prepared;
  // Built per exchange, so one copy serves every tool of one listing whose `data` is open: copying it per tool was a
  // tenth of a listing. A tool with its own output schema gets its own envelope.
  const outputSchema = envelopeOutputSchema();
  return {
    // `tool` is built fresh for this listing, so it is completed in place: spreading it anew per tool was the
    // largest share of our own listing time.
    capability(tool, descriptor: CapabilityDescriptor) {
      const title = runtime.registry.get(descriptor.id)?.meta.adapters?.mcp?.annotations?.title;
      if (typeof title === "string" && title.length > 0) tool.title = title;
      const data = dataSchemas.get(descriptor.id);
      tool.outputSchema = data === undefined ? outputSchema : envelopeOutputSchema(data);
      tool._meta = {
        [GOVERNANCE_META_KEY]: {
          capabilityId: descriptor.id,
          risk: descriptor.risk,
          sideEffect: descriptor.sideEffect,
          // The static gate or this actor's discovery verdict, as in the description's " Requires approval.".
          requiresApproval: descriptor.requiresApproval === true,
          // And when it depends on the call: `false` above must not read as "never" (a threshold policy).
          approval: descriptor.requiresApproval === true ? "always" : (approvalDemands.get(descriptor.id) ?? "never"),
        },
      };
      return tool;
    },
    resume: (tool) => ({ ...tool, outputSchema }),
  };
}
