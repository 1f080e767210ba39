import type { Actor, GrantRecord, GrantStatus, GrantTerms } from "@orpc-agent/core";
import { float8Column, instantColumn, jsonColumn } from "../encoding.js";

type Row = Record<string, unknown>;

/**
 * A fresh record from a projected row. The terms come back as stored, seal included and never interpreted here: the
 * runtime verifies the seal, so a row edited in SQL reads as edited. `at` is the instant the status is judged at.
 */
export function grantFromRow(row: Row, at: Date): GrantRecord {
  const terms: GrantTerms = {
    id: String(row.id),
    capabilityId: String(row.capability_id),
    definitionDigest: String(row.definition_digest),
    actor: jsonColumn(row.actor, "actor") as Actor,
    surface: String(row.surface) as GrantTerms["surface"],
    scope: String(row.scope) as GrantTerms["scope"],
    types: jsonColumn(row.types, "types") as string[],
    conditions: jsonColumn(row.conditions, "conditions") as GrantTerms["conditions"],
    uses: countColumn(row.uses, "uses"),
    issuers: jsonColumn(row.issuers, "issuers") as Actor[],
    issuedAt: instantColumn(row.issued_at_ms, "issued_at"),
    expiresAt: instantColumn(row.expires_at_ms, "expires_at"),
  };
  if (typeof row.conversation_id === "string") terms.conversationId = row.conversation_id;
  const max = float8Column(row.budget_max, "budget_max");
  if (typeof row.budget_path === "string" && max !== undefined) terms.budget = { path: row.budget_path, max };
  if (typeof row.approval_id === "string") terms.approvalId = row.approval_id;
  if (typeof row.seal === "string") terms.seal = row.seal;

  const record: GrantRecord = { ...terms, status: "active", usesLeft: countColumn(row.uses_left, "uses_left") };
  if (terms.budget !== undefined) record.spent = float8Column(row.budget_spent, "budget_spent") ?? 0;
  if (row.revoked_by !== null && row.revoked_by !== undefined) {
    record.revoked = { by: jsonColumn(row.revoked_by, "revoked_by") as Actor, at: instantColumn(row.revoked_at_ms, "revoked_at") };
    if (typeof row.revoke_reason === "string") record.revoked.reason = row.revoke_reason;
  }
  record.status = statusOf(record, at);
  return record;
}

/** Revoked, then exhausted (no use, or the whole budget spent), then expired (strictly after `expiresAt`): core's order. */
function statusOf(record: GrantRecord, at: Date): Exclude<GrantStatus, "void"> {
  if (record.revoked !== undefined) return "revoked";
  if (record.usesLeft <= 0) return "exhausted";
  if (record.budget !== undefined && !(record.spent! < record.budget.max)) return "exhausted";
  // Fails closed as core's expiry check does: an unreadable clock counts as expired.
  return at.getTime() <= record.expiresAt.getTime() ? "active" : "expired";
}

/** A bigint column projected as text. */
function countColumn(value: unknown, column: string): number {
  const count = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(count)) throw new Error(`Column "${column}" is not a count`);
  return count;
}
