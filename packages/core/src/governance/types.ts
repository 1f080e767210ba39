import type { AgentPolicy, PolicyPhase, PolicyScope } from "../capability/types.js";
import type { CapabilityRegistry } from "../registry/types.js";

export type PolicyManifestEntry = {
  name: string;
  phases: readonly PolicyPhase[];
  scope?: PolicyScope;
  /** Present only for shadow policies: evaluated and audited, never obeyed. */
  mode?: "shadow";
  /** Sorted candidate ids: capabilities the policy's scope selects. A candidate is not a verdict. */
  capabilities: readonly string[];
};

export type AgentGovernance = {
  readonly registry: CapabilityRegistry;
  /** The enforced runtime-level policies, flattened, in evaluation order. */
  readonly policies: readonly AgentPolicy[];
  /** Runtime-level shadow policies, flattened: each marked `mode: "shadow"`, evaluated after the enforced ones of a batch. */
  readonly shadowPolicies: readonly AgentPolicy[];
  readonly manifest: readonly PolicyManifestEntry[];
};
