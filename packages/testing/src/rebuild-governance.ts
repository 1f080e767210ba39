import { Procedure, type AnyProcedure } from "@orpc/server";
import {
  createCapabilityRegistry,
  defineGovernance,
  type AgentCapability,
  type AgentGovernance,
  type CapabilityDefs,
} from "@orpc-agent/core";

/**
 * The same governance with some procedures swapped: the registry is rebuilt from the capability paths (so ids and
 * registry order stay), then bound to the same runtime policies (docs/architecture/spec/adapters.md#adapters-4).
 */
export function rebuildGovernance(
  governance: AgentGovernance,
  replace: (capability: AgentCapability) => AnyProcedure,
): AgentGovernance {
  const defs: CapabilityDefs = {};
  for (const capability of governance.registry.capabilities()) {
    let branch = defs;
    const parents = capability.path.slice(0, -1);
    for (const segment of parents) {
      if (!Object.hasOwn(branch, segment)) branch[segment] = {};
      branch = branch[segment] as CapabilityDefs;
    }
    branch[capability.path[capability.path.length - 1]!] = replace(capability);
  }
  return defineGovernance({ registry: createCapabilityRegistry(defs), policies: governance.policies, shadowPolicies: governance.shadowPolicies ?? [] });
}

/** An oRPC procedure identical to `procedure` except for the given definition fields (meta, middleware, schemas kept). */
export function reconstructProcedure(procedure: AnyProcedure, changes: Partial<AnyProcedure["~orpc"]>): AnyProcedure {
  return new Procedure({ ...procedure["~orpc"], ...changes });
}
