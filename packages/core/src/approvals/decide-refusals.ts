import { isWellFormedActor } from "../vocabulary/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import type { ErrorCode } from "../errors/codes.js";
import type { ApprovalDecision, ApprovalStatus } from "./types.js";

// The typed refusals of `decide`, shared by `runtime.approvals.decide` and every coordinator so that all stores answer
// alike (docs/reference/errors.md). The store's own words stay in `cause`, for operators; callers read the code.

/**
 * Throws unless `decision` is a decision someone can be held to: `INPUT_INVALID` for its shape (not an object, a
 * `status` other than `"approved"`/`"rejected"`, a `comment` that is not a string), then `UNAUTHENTICATED` for an
 * approver that is missing, not a well-formed actor, or `anonymous` (SI-4). Stage `approval`. Checked before the
 * record is read, so a known and an unknown id answer alike.
 *
 * @example
 * import { assertApprovalDecision, type ApprovalCoordinator } from "@orpc-agent/core";
 * declare const store: ApprovalCoordinator;
 * const decide: ApprovalCoordinator["decide"] = async (id, decision) => {
 *   assertApprovalDecision(decision);
 *   return store.decide(id, decision);
 * };
 */
export function assertApprovalDecision(decision: unknown): asserts decision is ApprovalDecision {
  const given = typeof decision === "object" && decision !== null ? (decision as { status?: unknown; approver?: unknown; comment?: unknown }) : undefined;
  const status = given?.status;
  if (status !== "approved" && status !== "rejected") {
    throw invalid("status", 'The decision status must be "approved" or "rejected".', `Invalid decision status "${String(status)}"`);
  }
  if (given!.comment !== undefined && typeof given!.comment !== "string") {
    throw invalid("comment", "The decision comment must be a string.", "The decision comment is not a string");
  }
  const approver = given!.approver;
  if (!isWellFormedActor(approver) || approver.kind === "anonymous") {
    throw new CapabilityError({
      code: "UNAUTHENTICATED",
      stage: "approval",
      cause: new Error("The decision approver is not a well-formed actor (non-empty string id and a valid kind) or is anonymous"),
    });
  }
}

/** No record under `id`, or one the runtime will not show (its seal fails): `INTERNAL_ERROR`, stage `approval`, as at resume (R1). */
export function approvalNotFoundError(id: string): CapabilityError {
  return new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause: new Error(`Approval "${id}" was not found`) });
}

/**
 * A record no longer pending, by the status it reports: `APPROVAL_REJECTED`, `APPROVAL_CONSUMED`, `APPROVAL_EXPIRED`
 * as resume names them, `APPROVAL_ALREADY_DECIDED` for an approved or cancelled one.
 */
export function approvalNotPendingError(id: string, status: ApprovalStatus): CapabilityError {
  const cause = new Error(`Approval "${id}" is not pending (status: ${status})`);
  const code = Object.hasOwn(NOT_PENDING, status) ? NOT_PENDING[status as keyof typeof NOT_PENDING] : undefined;
  // A store that refused a pending record broke its own compare-and-set: an invariant, not a refusal.
  if (code === undefined) return new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause });
  return new CapabilityError({ code, stage: "approval", cause });
}

/** A quorum vote by an approver already counted on this record: `APPROVAL_ALREADY_DECIDED`, the record still pending. */
export function approvalAlreadyApprovedError(id: string, approverId: string): CapabilityError {
  return new CapabilityError({ code: "APPROVAL_ALREADY_DECIDED", stage: "approval", cause: new Error(`Approval "${id}" was already approved by "${approverId}"`) });
}

const NOT_PENDING: Readonly<Record<Exclude<ApprovalStatus, "pending">, ErrorCode>> = Object.freeze({
  approved: "APPROVAL_ALREADY_DECIDED",
  cancelled: "APPROVAL_ALREADY_DECIDED",
  rejected: "APPROVAL_REJECTED",
  consumed: "APPROVAL_CONSUMED",
  expired: "APPROVAL_EXPIRED",
});

/** `INPUT_INVALID` with the field's issue and no value (docs/reference/errors.md). */
function invalid(field: string, message: string, cause: string): CapabilityError {
  return new CapabilityError({ code: "INPUT_INVALID", stage: "approval", details: { issues: [{ path: [field], message }] }, cause: new Error(cause) });
}
