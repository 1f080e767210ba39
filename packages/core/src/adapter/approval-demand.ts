import type { AgentPolicy } from "../capability/types.js";
import type { AgentGovernance } from "../governance/types.js";
import { flattenPolicies } from "../policy/compose.js";
import { isShadowPolicy } from "../policy/is-policy.js";
import { policyScopeMatches } from "../policy/scope.js";
import type { ExposureSurface } from "../vocabulary/types.js";

/**
 * Whether a call can stop for a person's approval, as far as anything known before the call tells: `"always"`,
 * `"conditional"` (it depends on the call) or `"never"`.
 */
export type ApprovalDemand = "always" | "conditional" | "never";

/**
 * What an adapter can truthfully tell a client about approval before calling a capability on a surface:
 * `"always"` when its metadata requires approval (`approval.required`); `"conditional"` when enforced policies with
 * an `invocation` or `execution` phase apply to it there (its own `meta.policies` included), since any of them may
 * demand approval for some input, actor or context, and a policy is a function no one can read ahead (one that only
 * ever denies counts too); `"never"` otherwise. Shadow and discovery-only policies never stop a call. Static: for one
 * actor, a descriptor's `requiresApproval` (a discovery policy's demand) means `"always"` as well.
 *
 * @example
 * import type { AgentGovernance } from "@orpc-agent/core";
 * import { approvalDemand } from "@orpc-agent/core/adapter";
 * declare const governance: AgentGovernance;
 * const demand = approvalDemand(governance, "orders.refund", "mcp"); // "conditional" under a refund threshold
 */
export function approvalDemand(governance: AgentGovernance, capabilityId: string, surface: ExposureSurface): ApprovalDemand {
  const capability = governance.registry.get(capabilityId);
  if (capability === undefined) throw new TypeError(`approvalDemand: the registry holds no capability "${capabilityId}".`);
  if (capability.meta.approval?.required === true) return "always";
  // The same selection the runtime plans per capability and surface (runtime/plan.ts): enforced policies, runtime
  // level then the capability's own, whose scope selects it on this surface.
  const runsAtCallTime = (policy: AgentPolicy) =>
    !isShadowPolicy(policy) && (policy.phases.includes("invocation") || policy.phases.includes("execution")) && policyScopeMatches(policy.scope, capability, surface);
  return governance.policies.some(runsAtCallTime) || flattenPolicies(capability.meta.policies ?? []).some(runsAtCallTime) ? "conditional" : "never";
}
