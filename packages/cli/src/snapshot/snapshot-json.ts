import type { CapabilityEntry, CapabilitySnapshot, RuntimePolicyEntry } from "./types.js";

/**
 * The on-disk form (docs/architecture/spec/cli.md#cli-6-1): keys in the fixed order of docs/architecture/spec/cli.md#cli-6-2, two-space indent, trailing newline.
 * Identical snapshots give identical bytes, so `inspect --json` and `snapshot -o -` match.
 */
export function snapshotJson(snapshot: CapabilitySnapshot): string {
  return `${JSON.stringify(orderedSnapshot(snapshot), null, 2)}\n`;
}

function orderedSnapshot(snapshot: CapabilitySnapshot): CapabilitySnapshot {
  return {
    version: snapshot.version,
    capabilities: snapshot.capabilities.map(orderedCapability),
    excluded: [...snapshot.excluded],
    unexposed: [...snapshot.unexposed],
    ...(snapshot.runtime !== undefined ? { runtime: { policies: snapshot.runtime.policies.map(orderedRuntimePolicy) } } : {}),
  };
}

const CAPABILITY_KEYS: readonly (keyof CapabilityEntry)[] = [
  "id", "description", "sideEffect", "risk", "expose", "toolNames", "discovery", "approval",
  "idempotent", "retry", "timeoutMs", "tags", "policies", "shadowPolicies", "redact", "inputSchemaHash",
];

function orderedCapability(entry: CapabilityEntry): CapabilityEntry {
  const out = pick(entry, CAPABILITY_KEYS);
  if (entry.toolNames !== undefined) out.toolNames = pick(entry.toolNames, ["aiSdk", "mcp"]);
  if (entry.approval !== undefined) {
    out.approval = pick(entry.approval, ["required", "type", "expiresInMs", "quorum", "grants"]);
    if (entry.approval.grants !== undefined) out.approval.grants = pick(entry.approval.grants, ["maxUses", "maxTtlMs", "scopes"]);
  }
  if (entry.retry !== undefined) out.retry = pick(entry.retry, ["maxAttempts", "backoffMs", "retryOn"]);
  if (entry.redact !== undefined) out.redact = pick(entry.redact, ["output", "approvalInput"]);
  return out;
}

function orderedRuntimePolicy(entry: RuntimePolicyEntry): RuntimePolicyEntry {
  // `scope` is the manifest's normalized form, copied verbatim: never reordered (docs/architecture/spec/cli.md#cli-6-2).
  // `mode` is written too: a baseline that dropped it would read a shadow policy as enforced.
  return pick(entry, ["name", "phases", "scope", "candidates", "mode"]);
}

function pick<T extends object>(value: T, keys: readonly (keyof T)[]): T {
  const out: Partial<T> = {};
  for (const key of keys) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out as T;
}
