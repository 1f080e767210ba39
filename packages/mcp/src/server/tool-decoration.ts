import type { AgentRuntime, CapabilityDescriptor } from "@orpc-agent/core";
import type { ToolDecoration } from "../catalog/list-tools.js";
import { envelopeOutputSchema } from "../catalog/envelope-schema.js";

/** The namespaced `_meta` key of each tool's governance facts: facts for clients and hosts, never authority. */
const GOVERNANCE_META_KEY = "orpc-agent/governance";

/**
 * What the v2 path adds to each listed tool: the envelope's `outputSchema` (so `structuredContent` validates, every
 * status), `title` from `meta.adapters.mcp.annotations.title`, and the governance facts under `_meta`.
 */
export function modernToolDecoration(runtime: AgentRuntime<never>): ToolDecoration {
  // Built per exchange, so one copy serves every tool of one listing: copying it per tool was a tenth of a listing.
  const outputSchema = envelopeOutputSchema();
  return {
    // `tool` is built fresh for this listing, so it is completed in place: spreading it anew per tool was the
    // largest share of our own listing time.
    capability(tool, descriptor: CapabilityDescriptor) {
      const title = runtime.registry.get(descriptor.id)?.meta.adapters?.mcp?.annotations?.title;
      if (typeof title === "string" && title.length > 0) tool.title = title;
      tool.outputSchema = outputSchema;
      tool._meta = {
        [GOVERNANCE_META_KEY]: {
          capabilityId: descriptor.id,
          risk: descriptor.risk,
          sideEffect: descriptor.sideEffect,
          requiresApproval: descriptor.requiresApproval === true,
        },
      };
      return tool;
    },
    resume: (tool) => ({ ...tool, outputSchema }),
  };
}
