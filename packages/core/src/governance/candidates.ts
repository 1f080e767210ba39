import { policyScopeMatches } from "../policy/scope.js";
import type { PolicyScope } from "../capability/types.js";
import type { AgentCapability } from "../registry/types.js";

/**
 * Sorted ids of the capabilities a scope selects, independent of any request: capability selectors
 * match and, if `surfaces` is set, the capability is exposed (`=== true`) on at least one of them.
 * A candidate is not a verdict (docs/architecture/spec/core.md#core-4).
 */
export function resolvePolicyCandidates(
  scope: PolicyScope | undefined,
  capabilities: readonly AgentCapability[],
): string[] {
  const ids: string[] = [];
  for (const capability of capabilities) {
    if (!policyScopeMatches(scope, capability)) continue;
    const surfaces = scope?.surfaces;
    if (surfaces !== undefined && !surfaces.some((surface) => capability.meta.expose[surface] === true)) continue;
    ids.push(capability.id);
  }
  return ids.sort();
}
