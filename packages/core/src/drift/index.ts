// @orpc-agent/core/drift: the one classification of governance changes, shared by `orpc-agent check` and resume.
export { capabilityChanges } from "./capability-changes.js";
export { capabilityEntry } from "./capability-entry.js";
export type { CapabilityEntryOptions } from "./capability-entry.js";
export { compareCodeUnits, sortedByCodeUnit } from "./code-unit-order.js";
export { pairByOccurrence } from "./pair-by-occurrence.js";
export { CHANGE_KINDS } from "./types.js";
export type { CapabilityEntry, Change, ChangeKind } from "./types.js";
