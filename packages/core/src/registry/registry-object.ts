import { toCapabilityPredicate } from "./filter.js";
import type { AgentCapability, CapabilityRegistry } from "./types.js";
import type { ExcludedProcedure } from "./walk.js";

// The frozen list behind each registry built here, for the runtime's one-time precompute.
const capabilityLists = new WeakMap<CapabilityRegistry, readonly AgentCapability[]>();

/**
 * Builds the immutable registry object over capabilities already in registry order. Every
 * listing returns a fresh array; capabilities and excluded entries are frozen and shared.
 */
export function buildRegistry(
  capabilities: readonly AgentCapability[],
  excluded: readonly ExcludedProcedure[],
): CapabilityRegistry {
  const list = Object.freeze(capabilities.slice());
  const byId = new Map<string, AgentCapability>();
  for (const capability of list) byId.set(capability.id, capability);

  const registry: CapabilityRegistry = Object.freeze({
    ids: () => list.map((capability) => capability.id),
    get: (id: string) => byId.get(id),
    capabilities: () => list.slice(),
    // Filtering is composition, not authorization (docs/architecture/spec/core.md#core-2-3): excluded entries carry over.
    filter: (query: Parameters<CapabilityRegistry["filter"]>[0]) =>
      buildRegistry(list.filter(toCapabilityPredicate(query)), excluded),
    inspect: () => ({
      capabilities: list.slice(),
      excluded: excluded.slice(),
      unexposed: list.filter(isUnexposed).map((capability) => capability.id),
    }),
  });
  capabilityLists.set(registry, list);
  return registry;
}

/**
 * Internal (not exported from the package): the registry's frozen capability list without a
 * copy. Falls back to `capabilities()` for registry objects not built by core.
 */
export function readCapabilityList(registry: CapabilityRegistry): readonly AgentCapability[] {
  return capabilityLists.get(registry) ?? Object.freeze(registry.capabilities());
}

function isUnexposed(capability: AgentCapability): boolean {
  const expose = capability.meta.expose;
  for (const surface in expose) if (expose[surface as keyof typeof expose] === true) return false;
  return true;
}
