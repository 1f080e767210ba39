import { flattenPolicies } from "../policy/compose.js";
import { isAgentPolicy } from "../policy/is-policy.js";
import { normalizePolicyScope } from "../policy/scope.js";
import type { AgentPolicy } from "../policy/types.js";
import type { AgentCapability, CapabilityRegistry } from "../registry/types.js";
import { resolvePolicyCandidates } from "./candidates.js";
import type { AgentGovernance, PolicyManifestEntry } from "./types.js";

export type GovernanceConfig = {
  registry: CapabilityRegistry;
  /** Runtime-level policies, evaluated before each capability's own `meta.policies`. */
  policies?: readonly AgentPolicy[];
};

const USAGE = "defineGovernance({ registry, policies? })";

/**
 * Binds a registry to its runtime-level policies and states, in `manifest`, which capabilities each
 * policy may apply to. Pure and synchronous, so it is safe at module scope (core.md §4).
 *
 * @example
 * export const governance = defineGovernance({ registry, policies: [refundLimit] });
 * const runtime = createAgentRuntime({ governance });
 */
export function defineGovernance(config: GovernanceConfig): AgentGovernance {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`${USAGE}: a config object is required.`);
  }
  const { registry } = config;
  if (typeof registry !== "object" || registry === null || typeof registry.get !== "function" || typeof registry.capabilities !== "function") {
    throw new TypeError(`${USAGE}: \`registry\` must be a CapabilityRegistry from createCapabilityRegistry().`);
  }
  const declared = config.policies ?? [];
  if (!Array.isArray(declared)) throw new TypeError(`${USAGE}: \`policies\` must be an array.`);
  declared.forEach((policy, index) => {
    if (!isAgentPolicy(policy)) {
      throw new TypeError(`${USAGE}: policies[${index}] is not a policy { name, phases, evaluate }; use definePolicy.`);
    }
  });

  // The runtime evaluates members one by one, so governance checks and lists them one by one (core.md §3).
  const policies = flattenPolicies(declared);
  const capabilities = registry.capabilities();
  const manifest = policies.map((policy) => manifestEntry(policy, registry, capabilities));
  return Object.freeze({
    registry,
    policies: Object.freeze(policies),
    manifest: Object.freeze(manifest),
  });
}

function manifestEntry(
  policy: AgentPolicy,
  registry: CapabilityRegistry,
  capabilities: readonly AgentCapability[],
): PolicyManifestEntry {
  // Re-normalizing is idempotent for definePolicy scopes and validates hand-built ones.
  const scope = policy.scope === undefined ? undefined : normalizePolicyScope(policy.scope, policy.name);
  for (const id of scope?.capabilities?.ids ?? []) {
    // A scope naming a missing id is a typo or a registry narrowed by filter: fail now (core.md §4, §15 item 13).
    if (registry.get(id) === undefined) {
      throw new TypeError(`${USAGE}: policy "${policy.name}" scopes capability id "${id}", which is not in the registry.`);
    }
  }
  const entry: PolicyManifestEntry = {
    name: policy.name,
    phases: Object.freeze([...policy.phases]),
    capabilities: Object.freeze(resolvePolicyCandidates(scope, capabilities)),
  };
  if (scope !== undefined) entry.scope = scope;
  return Object.freeze(entry);
}
