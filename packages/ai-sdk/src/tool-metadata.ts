import type { CapabilityDescriptor } from "@orpc-agent/core";

/**
 * What the UI learns about a tool without asking the runtime: it reaches `toolMetadata` on tool parts (`ai` 6 and
 * 7; `ai` 5 has no tool metadata). Never sent to the model. Display only: the runtime decides on every call.
 */
export type GovernedToolMetadata = {
  orpcAgent: {
    capabilityId: string;
    risk: CapabilityDescriptor["risk"];
    sideEffect: CapabilityDescriptor["sideEffect"];
    requiresApproval: boolean;
  };
};

export function toolMetadataOf(descriptor: Pick<CapabilityDescriptor, "id" | "risk" | "sideEffect" | "requiresApproval">): GovernedToolMetadata {
  return { orpcAgent: { capabilityId: descriptor.id, risk: descriptor.risk, sideEffect: descriptor.sideEffect, requiresApproval: descriptor.requiresApproval === true } };
}
