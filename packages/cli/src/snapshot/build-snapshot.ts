import { defaultToolName } from "@orpc-agent/core";
import { toJsonSchema } from "@orpc-agent/core/schema";
import { buildSnapshotWith, type BuildSnapshotOptions, type SnapshotSource } from "./snapshot-builder.js";
import type { CapabilitySnapshot } from "./types.js";

/**
 * Builds a v3 snapshot of a registry, runtime or governance in this process, with the core instance the
 * CLI resolves. The loader child uses the application's core instance instead (docs/architecture/spec/cli.md#cli-3).
 *
 * @example
 * import { buildSnapshot } from "@orpc-agent/cli";
 * import type { AgentGovernance } from "@orpc-agent/core";
 * declare const governance: AgentGovernance;
 * const snapshot = buildSnapshot(governance, { descriptions: false });
 */
export function buildSnapshot(source: SnapshotSource, options?: BuildSnapshotOptions): CapabilitySnapshot {
  return buildSnapshotWith({ toJsonSchema, defaultToolName }, source, options);
}
