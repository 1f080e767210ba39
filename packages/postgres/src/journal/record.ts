import type { AuditActorRef } from "@orpc-agent/core";
import type { InvocationRecord, InvocationResolution, InvocationState, JournalOutcome } from "@orpc-agent/core/server";
import { instantColumn, jsonColumn } from "../encoding.js";

type Row = Record<string, unknown>;

const present = (value: unknown): boolean => value !== null && value !== undefined;

/**
 * Builds a fresh record from a projected row. `now` is the operation's one clock reading: a `claimed` row
 * whose lease ended at or before it reads `unknown`/`lease-lapsed` (docs/architecture/spec/distributed.md#distributed-5-2), computed on read
 * and never written back, like approval expiry. The lease instant stays visible for reconciliation.
 */
export function invocationFromRow(row: Row, now: Date): InvocationRecord {
  const record: InvocationRecord = {
    namespace: String(row.namespace),
    invocationId: String(row.invocation_id),
    fingerprint: String(row.fingerprint),
    capabilityId: String(row.capability_id),
    surface: String(row.surface) as InvocationRecord["surface"],
    actor: { id: String(row.actor_id), kind: String(row.actor_kind) as AuditActorRef["kind"] },
    state: String(row.state) as InvocationState,
    fence: fenceColumn(row.fence),
    createdAt: instantColumn(row.created_at_ms, "created_at"),
    updatedAt: instantColumn(row.updated_at_ms, "updated_at"),
  };
  // A row written before the column existed has no acting agent: it reads as the user's alone (fail closed for agents).
  if (present(row.actor_via_id)) record.actor.via = { id: String(row.actor_via_id) };
  if (present(row.correlation_id)) record.correlationId = String(row.correlation_id);
  if (present(row.lease_expires_at_ms)) record.leaseExpiresAt = instantColumn(row.lease_expires_at_ms, "lease_expires_at");
  if (present(row.approval_id)) record.approvalId = String(row.approval_id);
  if (present(row.suspension)) record.suspension = jsonColumn(row.suspension, "suspension") as JournalOutcome;
  if (present(row.outcome)) record.outcome = jsonColumn(row.outcome, "outcome") as JournalOutcome;
  if (present(row.resolution)) record.resolution = resolutionFromJson(jsonColumn(row.resolution, "resolution"));
  if (record.state === "unknown" && present(row.unknown_reason)) record.unknownReason = String(row.unknown_reason) as "interrupted";
  if (record.state === "claimed" && record.leaseExpiresAt !== undefined && record.leaseExpiresAt.getTime() <= now.getTime()) {
    record.state = "unknown";
    record.unknownReason = "lease-lapsed";
  }
  return record;
}

/** The resolution as sent: `at` travels as ISO text inside the jsonb and is revived here. */
export function resolutionToJson(r: InvocationResolution): Record<string, unknown> {
  const json: Record<string, unknown> = { kind: r.kind, by: { id: r.by.id, kind: r.by.kind }, at: r.at.toISOString() };
  if (r.note !== undefined) json.note = r.note;
  return json;
}

function resolutionFromJson(value: unknown): InvocationResolution {
  const json = value as { kind: InvocationResolution["kind"]; by: AuditActorRef; note?: string; at: string };
  const resolution: InvocationResolution = { kind: json.kind, by: { id: json.by.id, kind: json.by.kind }, at: new Date(json.at) };
  if (typeof json.note === "string") resolution.note = json.note;
  return resolution;
}

/** `fence` is a bigint projected as text, so no driver's int8 parser is relied on. */
function fenceColumn(value: unknown): number {
  const fence = Number(value);
  if (!Number.isSafeInteger(fence) || fence < 1) throw new Error(`Column "fence" is not a fence (got ${String(value)})`);
  return fence;
}
