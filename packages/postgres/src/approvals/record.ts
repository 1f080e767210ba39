import type { Actor, ApprovalRecord, ApprovalStatus, ApprovalRequest, ApprovalVote } from "@orpc-agent/core";
import { instantColumn, jsonColumn } from "../encoding.js";

type Row = Record<string, unknown>;

/**
 * Builds a fresh record from a projected row (docs/architecture/spec/postgres.md#postgres-5-4). `now` is the operation's one
 * clock reading: a stored `pending` past `expiresAt` reports `expired` (strict, docs/architecture/spec/postgres.md#postgres-5-2); `null`
 * reports the stored status as is (a record `create` just wrote is `pending`).
 */
export function recordFromRow(row: Row, now: Date | null): ApprovalRecord {
  const expiresAt = instantColumn(row.expires_at_ms, "expires_at");
  const stored = String(row.status) as ApprovalStatus;
  const record: ApprovalRecord = {
    id: String(row.id),
    capabilityId: String(row.capability_id),
    surface: String(row.surface) as ApprovalRequest["surface"],
    actor: jsonColumn(row.actor, "actor") as Actor,
    input: jsonColumn(row.input, "input"),
    inputHash: String(row.input_hash),
    reasons: jsonColumn(row.reasons, "reasons") as string[],
    types: jsonColumn(row.types, "types") as string[],
    risk: String(row.risk) as ApprovalRequest["risk"],
    sideEffect: String(row.side_effect) as ApprovalRequest["sideEffect"],
    requestedAt: instantColumn(row.requested_at_ms, "requested_at"),
    expiresAt,
    status: reportedStatus(stored, expiresAt, now),
  };
  if (row.decided_by !== null && row.decided_by !== undefined) {
    // A consumed record was approved: only a stored `rejected` is a rejection.
    record.decision = {
      status: stored === "rejected" ? "rejected" : "approved",
      approver: jsonColumn(row.decided_by, "decided_by") as Actor,
      decidedAt: instantColumn(row.decided_at_ms, "decided_at"),
    };
    if (row.decision_comment !== null && row.decision_comment !== undefined) {
      record.decision.comment = String(row.decision_comment);
    }
    if (typeof row.decision_seal === "string") record.decision.seal = row.decision_seal;
    // Approve with changes: SQL NULL is no edit; the text "null" is an edit to JSON null.
    if (row.decision_input !== null && row.decision_input !== undefined) record.decision.input = jsonColumn(row.decision_input, "decision_input");
    if (typeof row.decision_input_hash === "string") record.decision.inputHash = row.decision_input_hash;
  }
  if (row.submitted_input !== null && row.submitted_input !== undefined) {
    record.submittedInput = jsonColumn(row.submitted_input, "submitted_input");
  }
  const quorum = row.quorum === null || row.quorum === undefined ? 1 : Number(row.quorum);
  if (quorum > 1) {
    record.quorum = quorum;
    const votes = (jsonColumn(row.approvals, "approvals") ?? []) as { approver: Actor; at: string; comment?: string; seal?: string }[];
    record.approvals = votes.map((vote): ApprovalVote => {
      const copy: ApprovalVote = { approver: vote.approver, at: new Date(vote.at) };
      if (typeof vote.comment === "string") copy.comment = vote.comment;
      if (typeof vote.seal === "string") copy.seal = vote.seal;
      return copy;
    });
  }
  if (typeof row.seal === "string") record.seal = row.seal;
  if (typeof row.definition_digest === "string") record.definitionDigest = row.definition_digest;
  if (typeof row.manifest_digest === "string") record.manifestDigest = row.manifest_digest;
  if (row.definition !== null && row.definition !== undefined) record.definition = jsonColumn(row.definition, "definition");
  if (typeof row.conversation_id === "string") record.conversationId = row.conversation_id;
  if (row.consumed_by_execution_id !== null && row.consumed_by_execution_id !== undefined) {
    record.consumedByExecutionId = String(row.consumed_by_execution_id);
  }
  return record;
}

/** Expiry is computed on read and never written back; only `pending` expires (docs/architecture/spec/postgres.md#postgres-5-2). */
export function reportedStatus(stored: ApprovalStatus, expiresAt: Date, now: Date | null): ApprovalStatus {
  return stored === "pending" && now !== null && now.getTime() > expiresAt.getTime() ? "expired" : stored;
}
