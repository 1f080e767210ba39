import type { RiskLevel } from "../vocabulary/types.js";
import { pairByOccurrence } from "./pair-by-occurrence.js";
import type { CapabilityEntry, Change, ChangeKind } from "./types.js";

const RISK_ORDER: readonly RiskLevel[] = ["low", "medium", "high", "critical"];

/**
 * Changes to one capability present on both sides, in the row order of docs/architecture/spec/cli.md#cli-7-1. The one classification of
 * governance drift: `orpc-agent check` applies it to snapshots, resume to the definition an approval was asked under.
 */
export function capabilityChanges(before: CapabilityEntry, after: CapabilityEntry): Change[] {
  const changes: Change[] = [];
  const add = (kind: ChangeKind, field: string, message: string) => changes.push({ kind, id: after.id, field, message });

  for (const surface of after.expose) {
    if (!before.expose.includes(surface)) add("widening", "expose", `now exposed on ${surface}`);
  }
  for (const surface of before.expose) {
    if (!after.expose.includes(surface)) add("narrowing", "expose", `no longer exposed on ${surface}`);
  }

  // Any direction widens: policies keyed on the old value stop matching.
  if (before.sideEffect !== after.sideEffect) {
    add("widening", "sideEffect", `side effect ${before.sideEffect} → ${after.sideEffect}; policies keyed on ${before.sideEffect} no longer match`);
  }

  if (before.risk !== after.risk) {
    const lowered = RISK_ORDER.indexOf(after.risk) < RISK_ORDER.indexOf(before.risk);
    add(lowered ? "widening" : "narrowing", "risk", `risk ${lowered ? "lowered" : "raised"}: ${before.risk} → ${after.risk}`);
  }

  approvalChanges(before, after, add);

  if (before.idempotent !== after.idempotent) {
    // false → true is what permits retrying a write (SI-11).
    if (after.idempotent) add("widening", "idempotent", "now declared idempotent, which permits retrying writes");
    else add("narrowing", "idempotent", "no longer declared idempotent");
  }

  retryChanges(before, after, add);
  policyChanges(before.policies, after.policies, add, before.shadowPolicies ?? [], after.shadowPolicies ?? []);

  for (const hook of ["output", "approvalInput"] as const) {
    const had = before.redact?.[hook] === true;
    const has = after.redact?.[hook] === true;
    if (had && !has) add("widening", `redact.${hook}`, `${hook} redaction hook removed`);
    if (!had && has) add("narrowing", `redact.${hook}`, `${hook} redaction hook added`);
  }

  for (const surface of ["aiSdk", "mcp"] as const) {
    const was = before.toolNames?.[surface];
    const now = after.toolNames?.[surface];
    if (was !== undefined && now !== undefined && was !== now) add("neutral", "toolNames", `tool renamed on ${surface}: ${was} → ${now}`);
  }

  if (before.discovery !== after.discovery) {
    // A discoverable capability enters unbound tool lists, callable with identifiers the model authored.
    if (after.discovery === "discoverable") add("widening", "discovery", "now discoverable: listed in unbound tool lists");
    else add("narrowing", "discovery", "now contextual: left out of unbound tool lists");
  }

  if (before.inputSchemaHash !== after.inputSchemaHash) {
    add("neutral", "inputSchema", `input schema changed (${hashLabel(before.inputSchemaHash)} → ${hashLabel(after.inputSchemaHash)})`);
  }
  // Absent means written with --no-descriptions, not an empty description (decided in this package).
  if (before.description !== undefined && after.description !== undefined && before.description !== after.description) {
    add("neutral", "description", "description changed (it is part of the model's prompt)");
  }
  if (before.timeoutMs !== after.timeoutMs) {
    add("neutral", "timeoutMs", `timeout ${msLabel(before.timeoutMs)} → ${msLabel(after.timeoutMs)}`);
  }
  if (before.tags.join("\u0000") !== after.tags.join("\u0000")) {
    add("neutral", "tags", `tags [${before.tags.join(", ")}] → [${after.tags.join(", ")}]`);
  }
  return changes;
}

type Add = (kind: ChangeKind, field: string, message: string) => void;

function approvalChanges(before: CapabilityEntry, after: CapabilityEntry, add: Add): void {
  const wasRequired = before.approval?.required === true;
  const isRequired = after.approval?.required === true;
  if (wasRequired && !isRequired) add("widening", "approval", "approval no longer required");
  if (!wasRequired && isRequired) add("narrowing", "approval", "approval now required");

  const bothRequired = wasRequired && isRequired;
  if (bothRequired && before.approval?.type !== after.approval?.type) {
    add("neutral", "approval.type", `approval type ${before.approval?.type ?? "(none)"} → ${after.approval?.type ?? "(none)"}`);
  }
  // Fewer approvers is a weaker control, more a stronger one. The quorum applies to every approval the capability
  // asks for (policy-demanded ones too), so it counts whichever side declares it (removing the approval metadata of
  // a policy-gated quorum of 2 leaves one approver), unless the gate itself came or went, reported above.
  const quorumWas = before.approval?.quorum ?? 1;
  const quorumNow = after.approval?.quorum ?? 1;
  if (quorumWas !== quorumNow && wasRequired === isRequired) {
    add(quorumNow < quorumWas ? "widening" : "narrowing", "approval.quorum", `approval quorum ${quorumWas} → ${quorumNow}`);
  }
  grantChanges(before.approval?.grants, after.approval?.grants, add);
  const was = before.approval?.expiresInMs;
  const now = after.approval?.expiresInMs;
  if (was === now) return;
  const message = `approval expiry ${msLabel(was)} → ${msLabel(now)}`;
  // Set on both sides and gating on both: a longer window is a weaker control. Set ↔ unset is neutral
  // (docs/architecture/spec/cli.md#cli-7-1), and so is any change while approval is not required on both sides (decided in this package).
  if (bothRequired && was !== undefined && now !== undefined) add(now > was ? "widening" : "narrowing", "approval.expiresInMs", message);
  else add("neutral", "approval.expiresInMs", message);
}

type GrantCapsEntry = NonNullable<NonNullable<CapabilityEntry["approval"]>["grants"]>;

// Grant caps bound what one decision can authorize (SI-13), whether or not approval is required on either side
// (policies may demand the approvals a grant covers), so they are judged on their own.
function grantChanges(before: GrantCapsEntry | undefined, after: GrantCapsEntry | undefined, add: Add): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    add("widening", "approval.grants", `standing grants now allowed: ${grantCapsLabel(after!)}`);
    return;
  }
  if (after === undefined) {
    add("narrowing", "approval.grants", "standing grants no longer allowed");
    return;
  }
  if (before.maxUses !== after.maxUses) {
    add(after.maxUses > before.maxUses ? "widening" : "narrowing", "approval.grants", `grant maxUses ${before.maxUses} → ${after.maxUses}`);
  }
  if (before.maxTtlMs !== after.maxTtlMs) {
    add(after.maxTtlMs > before.maxTtlMs ? "widening" : "narrowing", "approval.grants", `grant maxTtlMs ${before.maxTtlMs}ms → ${after.maxTtlMs}ms`);
  }
  const added = after.scopes.filter((scope) => !before.scopes.includes(scope));
  const removed = before.scopes.filter((scope) => !after.scopes.includes(scope));
  if (added.length > 0) add("widening", "approval.grants", `grant scope now allowed: ${added.join(", ")}`);
  if (removed.length > 0) add("narrowing", "approval.grants", `grant scope no longer allowed: ${removed.join(", ")}`);
}

function grantCapsLabel(caps: GrantCapsEntry): string {
  return `maxUses ${caps.maxUses}, maxTtlMs ${caps.maxTtlMs}ms, scopes ${caps.scopes.join(", ")}`;
}

function retryChanges(before: CapabilityEntry, after: CapabilityEntry, add: Add): void {
  const was = before.retry?.maxAttempts ?? 0;
  const now = after.retry?.maxAttempts ?? 0;
  // More retries of a write-like capability repeat its effect.
  const widened = now > was && after.sideEffect !== "none" && after.sideEffect !== "read";
  if (widened) add("widening", "retry", `retries of a ${after.sideEffect} capability grew: ${was} → ${now}`);
  const presenceChanged = (before.retry === undefined) !== (after.retry === undefined);
  const otherChange =
    (!widened && (was !== now || presenceChanged)) ||
    before.retry?.backoffMs !== after.retry?.backoffMs ||
    (before.retry?.retryOn ?? false) !== (after.retry?.retryOn ?? false);
  if (otherChange) add("neutral", "retry", `retry ${retryLabel(before.retry)} → ${retryLabel(after.retry)}`);
}

function policyChanges(before: readonly string[], after: readonly string[], add: Add, shadowBefore: readonly string[], shadowAfter: readonly string[]): void {
  const { removed, added, reordered } = pairByOccurrence(before, after);
  const shadows = pairByOccurrence(shadowBefore, shadowAfter);
  // Enforced → shadow removes a control (widening); shadow → enforced adds one (narrowing).
  const toShadow = removed.filter((name) => shadows.added.includes(name));
  const toEnforced = added.filter((name) => shadows.removed.includes(name));
  const plainRemoved = removed.filter((name) => !toShadow.includes(name));
  const plainAdded = added.filter((name) => !toEnforced.includes(name));
  if (toShadow.length > 0) add("widening", "policies", `policy now in shadow mode, no longer enforced: ${toShadow.join(", ")}`);
  if (toEnforced.length > 0) add("narrowing", "policies", `shadow policy now enforced: ${toEnforced.join(", ")}`);
  if (plainRemoved.length > 0) add("widening", "policies", `policy removed: ${plainRemoved.join(", ")}`);
  if (plainAdded.length > 0) add("narrowing", "policies", `policy added: ${plainAdded.join(", ")}`);
  if (reordered) {
    add("neutral", "policies", `policies reordered: ${before.join(", ")} → ${after.join(", ")}`);
  }
  // A shadow policy decides nothing: adding or removing one changes no reach.
  const shadowRemoved = shadows.removed.filter((name) => !toEnforced.includes(name));
  const shadowAdded = shadows.added.filter((name) => !toShadow.includes(name));
  if (shadowRemoved.length > 0) add("neutral", "shadowPolicies", `shadow policy removed: ${shadowRemoved.join(", ")}`);
  if (shadowAdded.length > 0) add("neutral", "shadowPolicies", `shadow policy added: ${shadowAdded.join(", ")}`);
}

function hashLabel(hash: string | null): string {
  if (hash === null) return "no schema";
  return hash.startsWith("sha256:") ? hash.slice(0, 19) : hash;
}

function msLabel(ms: number | undefined): string {
  return ms === undefined ? "default" : `${ms}ms`;
}

function retryLabel(retry: CapabilityEntry["retry"]): string {
  if (retry === undefined) return "none";
  const parts = [`×${retry.maxAttempts}`];
  if (retry.backoffMs !== undefined) parts.push(`backoff ${retry.backoffMs}ms`);
  if (retry.retryOn) parts.push("retryOn");
  return parts.join(" ");
}
