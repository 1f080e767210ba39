import type { ExposureSurface, RiskLevel, SideEffect } from "../vocabulary/types.js";

/** Widening: the agent gained reach, or a control weakened (docs/architecture/spec/cli.md#cli-7). */
export type ChangeKind = "widening" | "narrowing" | "neutral";

export type Change = {
  kind: ChangeKind;
  /** A capability id, an excluded path, or `"(runtime)"` for runtime-wide changes. */
  id: string;
  field: string;
  message: string;
};

export const CHANGE_KINDS: readonly ChangeKind[] = ["widening", "narrowing", "neutral"];

/** One capability as the snapshot records it; key order here is the on-disk order (docs/architecture/spec/cli.md#cli-6-2). */
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
  /**
   * `quorum`: distinct approvers needed, present only above 1 (docs/guides/quorum-approvals.md). `grants`: the
   * standing-grant caps, present only when declared, scopes sorted (docs/guides/standing-grants.md, SI-13).
   */
  approval?: {
    required: boolean;
    type?: string;
    expiresInMs?: number;
    quorum?: number;
    grants?: { maxUses: number; maxTtlMs: number; scopes: ("actor" | "conversation")[] };
  };
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
