import type { PolicyPhase, PolicyScope } from "@orpc-agent/core";
import type { CapabilityEntry } from "@orpc-agent/core/drift";

/** The snapshot format this version writes (docs/architecture/spec/cli.md#cli-6-3). Versions 1 and 2 are still read. */
export const SNAPSHOT_VERSION = 3 as const;

/** Where the snapshot's facts came from (docs/architecture/spec/cli.md#cli-5-3). */
export type EntrySource = "governance" | "runtime" | "registry" | "runtime-unreported";

export type { CapabilityEntry } from "@orpc-agent/core/drift";

export type RuntimePolicyEntry = {
  name: string;
  /** Sorted. */
  phases: PolicyPhase[];
  /** v3, copied from the manifest; absent = unscoped. */
  scope?: PolicyScope;
  /** v3, the manifest's candidate ids; absent = scope unknown. */
  candidates?: string[];
  /** Present only for a shadow policy: evaluated and audited, never enforced. */
  mode?: "shadow";
};

export type CapabilitySnapshot = {
  version: 1 | 2 | 3;
  capabilities: CapabilityEntry[];
  /** Paths of procedures without `meta.agent`. */
  excluded: string[];
  /** Ids whose `expose` map enables nothing. */
  unexposed: string[];
  /** v2+. Absent = runtime policies not observed; `{ policies: [] }` = observed, none. */
  runtime?: { policies: RuntimePolicyEntry[] };
};
