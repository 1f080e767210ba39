import type { AgentGovernance, AgentRuntime, CapabilityRegistry } from "@orpc-agent/core";

// Shapes are duck-typed, never `instanceof`: the application may carry its own copy of core (docs/architecture/spec/cli.md#cli-3, docs/architecture/spec/cli.md#cli-5-3).

export function isRegistryLike(value: unknown): value is CapabilityRegistry {
  if (!isObjectLike(value)) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.inspect === "function" &&
    typeof candidate.ids === "function" &&
    typeof candidate.capabilities === "function"
  );
}

export function isGovernanceLike(value: unknown): value is AgentGovernance {
  if (!isObjectLike(value)) return false;
  const candidate = value as Record<string, unknown>;
  return Array.isArray(candidate.manifest) && isRegistryLike(candidate.registry);
}

export function isRuntimeLike(value: unknown): value is AgentRuntime<unknown> {
  if (!isObjectLike(value)) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.invoke === "function" && isRegistryLike(candidate.registry);
}

/**
 * The governance a source carries: the source itself, or else `source.governance` when that has an
 * array `manifest` (docs/architecture/spec/cli.md#cli-5-3). A registry, or a runtime that does not report one, gives `undefined`.
 */
export function governanceOf(source: unknown): AgentGovernance | undefined {
  if (isGovernanceLike(source)) return source;
  if (!isObjectLike(source)) return undefined;
  const nested = (source as Record<string, unknown>).governance;
  if (isObjectLike(nested) && Array.isArray((nested as Record<string, unknown>).manifest)) {
    return nested as AgentGovernance;
  }
  return undefined;
}

function isObjectLike(value: unknown): value is object {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}
