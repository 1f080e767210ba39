import type { CapabilityEntry, CapabilitySnapshot } from "../snapshot/types.js";
import { capabilityChanges } from "@orpc-agent/core/drift";
import { runtimeChanges } from "./runtime-changes.js";
import type { Change } from "./types.js";

/**
 * Classifies every difference between a baseline and the current snapshot (docs/architecture/spec/cli.md#cli-7), in generation
 * order: capabilities in `after` order, removed capabilities, runtime changes, `excluded`.
 *
 * @example
 * import { diffSnapshots, parseSnapshot, type CapabilitySnapshot } from "@orpc-agent/cli";
 * declare const committed: string, current: CapabilitySnapshot; // the committed file's text, the built snapshot
 * const changes = diffSnapshots(parseSnapshot(committed), current);
 * const failing = changes.filter((change) => change.kind === "widening");
 */
export function diffSnapshots(before: CapabilitySnapshot, after: CapabilitySnapshot): Change[] {
  const beforeById = new Map(before.capabilities.map((capability) => [capability.id, capability]));
  const afterIds = new Set(after.capabilities.map((capability) => capability.id));
  const wasExcluded = new Set(before.excluded);
  const isExcluded = new Set(after.excluded);
  const newlyExcluded = after.excluded.filter((path) => !wasExcluded.has(path));

  const changes: Change[] = [];
  for (const capability of after.capabilities) {
    const previous = beforeById.get(capability.id);
    changes.push(...(previous === undefined ? [newCapability(capability)] : capabilityChanges(previous, capability)));
  }
  for (const capability of before.capabilities) {
    // A capability that lost meta.agent is reported once, as newly excluded (docs/architecture/spec/cli.md#cli-7-2).
    if (!afterIds.has(capability.id) && !isExcluded.has(capability.id)) {
      changes.push({ kind: "narrowing", id: capability.id, field: "capability", message: "capability removed" });
    }
  }
  changes.push(...runtimeChanges(before, after));
  for (const path of newlyExcluded) {
    const message = beforeById.has(path) ? "lost meta.agent: no longer a capability" : "newly excluded: no meta.agent";
    changes.push({ kind: "narrowing", id: path, field: "excluded", message });
  }
  for (const path of before.excluded) {
    // Leaving `excluded` by becoming a capability is already reported as the new capability.
    if (!isExcluded.has(path) && !afterIds.has(path)) {
      changes.push({ kind: "neutral", id: path, field: "excluded", message: "no longer excluded (removed or renamed)" });
    }
  }
  return changes;
}

function newCapability(capability: CapabilityEntry): Change {
  const exposed = capability.expose.length > 0;
  return {
    kind: exposed ? "widening" : "neutral",
    id: capability.id,
    field: "capability",
    message: exposed ? `new capability, exposed on ${capability.expose.join(", ")}` : "new capability, exposed on no surface",
  };
}
