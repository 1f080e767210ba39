import type { ApprovalDecision } from "@orpc-agent/core";

const ACTOR_KINDS: readonly unknown[] = ["user", "service", "automation", "anonymous"];

/**
 * The guards `decide` runs before any SQL (postgres.md §5.3), with the same contract phrases as
 * core's in-memory coordinator: `Invalid decision status`, `well-formed`.
 */
export function assertDecision(decision: ApprovalDecision): void {
  const status = (decision as { status?: unknown } | null | undefined)?.status;
  if (status !== "approved" && status !== "rejected") throw new Error(`Invalid decision status "${String(status)}"`);
  const approver = decision.approver as { id?: unknown; kind?: unknown } | null | undefined;
  const wellFormed =
    typeof approver === "object" &&
    approver !== null &&
    typeof approver.id === "string" &&
    approver.id.length > 0 &&
    ACTOR_KINDS.includes(approver.kind);
  if (!wellFormed) {
    throw new Error("The decision approver is not a well-formed actor (non-empty string id and a valid kind)");
  }
}
