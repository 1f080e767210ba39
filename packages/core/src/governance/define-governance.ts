import { flattenPolicies } from "../policy/compose.js";
import { isAgentPolicy, isShadowPolicy } from "../policy/is-policy.js";
import { normalizePolicyScope } from "../policy/scope.js";
import type { AgentPolicy } from "../capability/types.js";
import type { AgentCapability, CapabilityRegistry } from "../registry/types.js";
import { resolvePolicyCandidates } from "./candidates.js";
import type { AgentGovernance, PolicyManifestEntry } from "./types.js";

export type GovernanceConfig = {
  registry: CapabilityRegistry;
  /** Runtime-level policies, evaluated before each capability's own `meta.policies`. */
  policies?: readonly AgentPolicy[];
  /**
   * A set of runtime-level policies in shadow mode, whatever their own `mode`: evaluated beside the enforced ones
   * under the same scope, deadline and batch, never changing an outcome. Policies in `policies` declared with
   * `mode: "shadow"` join them.
   */
  shadowPolicies?: readonly AgentPolicy[];
};

const USAGE = "defineGovernance({ registry, policies?, shadowPolicies? })";

/**
 * Binds a registry to its runtime-level policies and states, in `manifest`, which capabilities each
 * policy may apply to. Pure and synchronous, so it is safe at module scope (docs/architecture/spec/core.md#core-4).
 *
 * @example
 * import { createAgentRuntime, defineGovernance, type AgentPolicy, type CapabilityRegistry } from "@orpc-agent/core";
 * declare const registry: CapabilityRegistry, refundLimit: AgentPolicy;
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
  const declared = policyList(config.policies, "policies");
  const declaredShadow = policyList(config.shadowPolicies, "shadowPolicies");

  // The runtime evaluates members one by one, so governance checks and lists them one by one (docs/architecture/spec/core.md#core-3).
  const flat = flattenPolicies(declared);
  const policies = flat.filter((policy) => !isShadowPolicy(policy));
  const shadowPolicies = [...flat.filter(isShadowPolicy), ...flattenPolicies(declaredShadow).map(asShadow)];
  const capabilities = registry.capabilities();
  const manifest = [...policies, ...shadowPolicies].map((policy) => manifestEntry(policy, registry, capabilities));
  return Object.freeze({
    registry,
    policies: Object.freeze(policies),
    shadowPolicies: Object.freeze(shadowPolicies),
    manifest: Object.freeze(manifest),
  });
}

function policyList(value: unknown, key: string): readonly AgentPolicy[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${USAGE}: \`${key}\` must be an array.`);
  value.forEach((policy, index) => {
    if (!isAgentPolicy(policy)) {
      throw new TypeError(`${USAGE}: ${key}[${index}] is not a policy { name, phases, evaluate }; use definePolicy.`);
    }
  });
  return value as readonly AgentPolicy[];
}

/** The same policy, marked shadow: a frozen copy, so the caller's object keeps its own mode elsewhere. */
function asShadow(policy: AgentPolicy): AgentPolicy {
  return isShadowPolicy(policy) ? policy : Object.freeze({ ...policy, mode: "shadow" as const });
}

function manifestEntry(
  policy: AgentPolicy,
  registry: CapabilityRegistry,
  capabilities: readonly AgentCapability[],
): PolicyManifestEntry {
  // Re-normalizing is idempotent for definePolicy scopes and validates hand-built ones.
  const scope = policy.scope === undefined ? undefined : normalizePolicyScope(policy.scope, policy.name);
  for (const id of scope?.capabilities?.ids ?? []) {
    // A scope naming a missing id is a typo or a registry narrowed by filter: fail now (docs/architecture/spec/core.md#core-4, docs/architecture/spec/core.md#core-15-item-13).
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
  if (isShadowPolicy(policy)) entry.mode = "shadow";
  return Object.freeze(entry);
}
