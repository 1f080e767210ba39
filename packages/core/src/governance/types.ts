import type { AgentPolicy, PolicyPhase, PolicyScope } from "../policy/types.js";
import type { CapabilityRegistry } from "../registry/types.js";

export type PolicyManifestEntry = {
  name: string;
  phases: readonly PolicyPhase[];
  scope?: PolicyScope;
  /** Sorted candidate ids: capabilities the policy's scope selects. A candidate is not a verdict. */
  capabilities: readonly string[];
};

export type AgentGovernance = {
  readonly registry: CapabilityRegistry;
  readonly policies: readonly AgentPolicy[];
  readonly manifest: readonly PolicyManifestEntry[];
};
