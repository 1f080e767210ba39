// Public entry of @orpc-agent/cli: the programmatic API of docs/architecture/spec/cli.md#cli-9.

// Snapshot (docs/architecture/spec/cli.md#cli-6)
export { SNAPSHOT_VERSION } from "./snapshot/types.js";
export type { CapabilityEntry, CapabilitySnapshot, EntrySource, RuntimePolicyEntry } from "./snapshot/types.js";
export { buildSnapshot } from "./snapshot/build-snapshot.js";
export type { BuildSnapshotOptions, SnapshotSource } from "./snapshot/snapshot-builder.js";
export { parseSnapshot } from "./snapshot/parse-snapshot.js";
export { snapshotJson } from "./snapshot/snapshot-json.js";
export { canonicalJson } from "./snapshot/canonical-json.js";
export { sha256 } from "./snapshot/sha256.js";
export { governanceOf } from "./snapshot/source-shapes.js";

// Drift (docs/architecture/spec/cli.md#cli-7)
export { diffSnapshots } from "./drift/diff-snapshots.js";
export type { Change, ChangeKind } from "./drift/types.js";
export type { ChangeCounts, FailOn } from "./drift/gate.js";

// Loading (docs/architecture/spec/cli.md#cli-5)
export { loadSnapshot } from "./load/load-snapshot.js";
export type { LoadedSnapshot, LoadSnapshotOptions } from "./load/load-snapshot.js";
export { LoadError } from "./load/load-error.js";

// Output (docs/architecture/spec/cli.md#cli-8)
export { renderInventory } from "./render/inventory.js";
export { renderChanges } from "./render/changes.js";
export { renderMarkdown } from "./render/markdown.js";
export { renderGithub } from "./render/github.js";
export { renderJson } from "./render/json.js";
export type { DriftReport } from "./render/json.js";
export type { Verbosity } from "./render/verbosity.js";
