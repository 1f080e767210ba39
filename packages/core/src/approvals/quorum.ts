import type { ApprovalRecord } from "./types.js";

/** A quorum is a whole number of distinct approvers, at least one. */
export function isValidQuorum(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** The quorum a request or record demands; absent means one approver (records stored before quorums existed). */
export function quorumOf(record: { quorum?: number }): number {
  return isValidQuorum(record.quorum) ? record.quorum : 1;
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
