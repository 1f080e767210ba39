import type { ApprovalDecision } from "@orpc-agent/core";
import { isWellFormedActor } from "@orpc-agent/core/adapter";

/**
 * The guards `decide` runs before any SQL (docs/architecture/spec/postgres.md#postgres-5-3), with the same contract phrases as
 * core's in-memory coordinator: `Invalid decision status`, `well-formed`.
 */
export function assertDecision(decision: ApprovalDecision): void {
  const status = (decision as { status?: unknown } | null | undefined)?.status;
  if (status !== "approved" && status !== "rejected") throw new Error(`Invalid decision status "${String(status)}"`);
  if (!isWellFormedActor(decision.approver)) {
    throw new Error("The decision approver is not a well-formed actor (non-empty string id and a valid kind)");
  }
}
