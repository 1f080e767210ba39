import type { PolicyManifestEntry, PolicyScope } from "@orpc-agent/core";
import { sortedByCodeUnit } from "@orpc-agent/core/drift";
import type { RuntimePolicyEntry } from "./types.js";

/**
 * Records one manifest entry (docs/architecture/spec/cli.md#cli-6-2). The manifest is already flattened, so a removed member of a
 * runtime-level composite shows up by name. Scope and candidates are copied verbatim, never recomputed.
 */
export function runtimePolicyEntry(entry: PolicyManifestEntry): RuntimePolicyEntry {
  return {
    name: entry.name,
    phases: sortedByCodeUnit(entry.phases),
    ...(entry.scope !== undefined ? { scope: plainCopy(entry.scope) } : {}),
    // A manifest without candidates (an older core) leaves the scope unknown rather than empty.
    ...(Array.isArray(entry.capabilities) ? { candidates: [...entry.capabilities] } : {}),
    ...(entry.mode === "shadow" ? { mode: "shadow" as const } : {}),
  };
}

// Frozen manifest objects become plain JSON data, key order preserved.
function plainCopy(scope: PolicyScope): PolicyScope {
  return JSON.parse(JSON.stringify(scope)) as PolicyScope;
}
