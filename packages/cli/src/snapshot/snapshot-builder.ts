import type { AgentGovernance, AgentRuntime, CapabilityRegistry } from "@orpc-agent/core";
import { capabilityEntry, compareCodeUnits, sortedByCodeUnit } from "@orpc-agent/core/drift";
import type { CoreFunctions } from "./core-functions.js";
import { inputSchemaHash } from "./input-schema-hash.js";
import { runtimePolicyEntry } from "./runtime-entry.js";
import { governanceOf, isRegistryLike } from "./source-shapes.js";
import { SNAPSHOT_VERSION, type CapabilitySnapshot } from "./types.js";

export type SnapshotSource = CapabilityRegistry | AgentRuntime<any> | AgentGovernance;
export type BuildSnapshotOptions = { descriptions?: boolean };

/**
 * Builds a v3 snapshot with the given core functions (docs/architecture/spec/cli.md#cli-6). Reads declarations only: no
 * application function and no policy `evaluate` is called.
 */
export function buildSnapshotWith(
  core: CoreFunctions,
  source: SnapshotSource,
  options: BuildSnapshotOptions = {},
): CapabilitySnapshot {
  const registry = isRegistryLike(source) ? source : (source as { registry?: unknown }).registry;
  if (!isRegistryLike(registry)) {
    throw new TypeError("buildSnapshot: expected a capability registry, a governance or a runtime.");
  }
  const descriptions = options.descriptions ?? true;
  const inspection = registry.inspect();
  const entryOptions = {
    descriptions,
    defaultToolName: core.defaultToolName,
    inputSchemaHash: (schema: Parameters<typeof inputSchemaHash>[0]) => inputSchemaHash(schema, core.toJsonSchema),
  };
  const capabilities = inspection.capabilities
    .map((capability) => capabilityEntry(capability, entryOptions))
    .sort((a, b) => compareCodeUnits(a.id, b.id));

  // A bare registry names no runtime policies: `runtime` stays absent (unknown), never defaulted (docs/architecture/spec/cli.md#cli-6-2).
  const governance = isRegistryLike(source) ? undefined : governanceOf(source);
  return {
    version: SNAPSHOT_VERSION,
    capabilities,
    excluded: sortedByCodeUnit(inspection.excluded.map((excluded) => excluded.path)),
    unexposed: sortedByCodeUnit(inspection.unexposed),
    ...(governance !== undefined ? { runtime: { policies: governance.manifest.map(runtimePolicyEntry) } } : {}),
  };
}
