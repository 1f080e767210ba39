import { approverKey } from "./approver-identity.js";
import type { ApprovalRecord } from "./types.js";

/** A quorum is a whole number of distinct approvers, at least one. */
export function isValidQuorum(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** The quorum a request or record demands; absent means one approver (records stored before quorums existed). */
export function quorumOf(record: { quorum?: number }): number {
  return isValidQuorum(record.quorum) ? record.quorum : 1;
}

/**
 * Whether a quorum record shows its quorum: a list of votes, each by a distinct approver (ids compared by
 * `approverKey`), at least `quorum` of them. Resume checks this whatever the coordinator claims, so a store that double-counts fails closed.
 */
export function showsQuorum(record: { approvals?: unknown }, quorum: number): boolean {
  if (!Array.isArray(record.approvals)) return false;
  const ids = record.approvals.map((vote: { approver?: { id?: unknown } } | null) => vote?.approver?.id);
  if (!ids.every((id) => typeof id === "string" && id.length > 0)) return false;
  const distinct = new Set((ids as string[]).map(approverKey));
  return distinct.size === ids.length && distinct.size >= quorum;
}

/** What an approval UI shows: how many distinct approvals count so far, of how many needed. */
export type ApprovalProgress = {
  /** Approvals counted toward the quorum. */
  approvals: number;
  quorum: number;
  /** Approvals still needed; 0 once approved. */
  remaining: number;
  /** For example `"1 of 2 approvals"`. */
  label: string;
};

/**
 * The quorum progress of a record, for approval UIs and envelopes. A single-approver record counts its approving
 * decision; a quorum record counts its `approvals`.
 *
 * @example
 * import { approvalProgress, type ApprovalRecord } from "@orpc-agent/core";
 * declare const record: ApprovalRecord; // quorum 2, one approval so far
 * approvalProgress(record).label; // "1 of 2 approvals"
 */
export function approvalProgress(record: Pick<ApprovalRecord, "quorum" | "approvals" | "decision" | "status">): ApprovalProgress {
  const quorum = quorumOf(record);
  const approvals = Array.isArray(record.approvals)
    ? record.approvals.length
    : record.decision?.status === "approved" && record.status !== "rejected"
      ? 1
      : 0;
  const counted = Math.min(approvals, quorum);
  return { approvals: counted, quorum, remaining: quorum - counted, label: `${counted} of ${quorum} approval${quorum === 1 ? "" : "s"}` };
}
