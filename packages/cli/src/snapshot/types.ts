import type { ExposureSurface, PolicyPhase, PolicyScope, RiskLevel, SideEffect } from "@orpc-agent/core";

/** The snapshot format this version writes (cli.md §6.3). Versions 1 and 2 are still read. */
export const SNAPSHOT_VERSION = 3 as const;

/** Where the snapshot's facts came from (cli.md §5.3). */
export type EntrySource = "governance" | "runtime" | "registry" | "runtime-unreported";

/** One capability as the snapshot records it; key order here is the on-disk order (cli.md §6.2). */
export type CapabilityEntry = {
  id: string;
  /** Absent when written with `--no-descriptions`. */
  description?: string;
  sideEffect: SideEffect;
  risk: RiskLevel;
  /** Surfaces whose `expose` value is exactly `true`, sorted. */
  expose: ExposureSurface[];
  toolNames?: { aiSdk?: string; mcp?: string };
  discovery: "discoverable" | "contextual";
  /** `quorum`: distinct approvers needed, present only above 1 (docs/guides/quorum-approvals.md). */
  approval?: { required: boolean; type?: string; expiresInMs?: number; quorum?: number };
  idempotent: boolean;
  retry?: { maxAttempts: number; backoffMs?: number; retryOn: boolean };
  timeoutMs?: number;
  tags: string[];
  /** Capability-level enforced policy names, in declaration order. */
  policies: string[];
  /** Capability-level shadow policy names, in declaration order; absent when there are none. */
  shadowPolicies?: string[];
  redact?: { output: boolean; approvalInput: boolean };
  /** `sha256:<hex>`, `null` without an input schema, `"unconvertible"` when conversion throws. */
  inputSchemaHash: string | null;
};

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
