import { isWellFormedActor } from "../vocabulary/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import type { ErrorCode } from "../errors/codes.js";
import type { ApprovalDecision, ApprovalStatus } from "./types.js";
import { canonicalJson } from "./canonical-json.js";

// The typed refusals of `decide`, shared by `runtime.approvals.decide` and every coordinator so that all stores answer
// alike (docs/reference/errors.md). The store's own words stay in `cause`, for operators; callers read the code.

/**
 * Throws unless `decision` is a decision someone can be held to: `INPUT_INVALID` for its shape (not an object, a
 * `status` other than `"approved"`/`"rejected"`, a `comment` that is not a string), then `UNAUTHENTICATED` for an
 * approver that is missing, not a well-formed actor, or `anonymous` (SI-4). Stage `approval`. Checked before the
 * record is read, so a known and an unknown id answer alike. A store keeps what {@link readApprovalDecision} returns,
 * never the object it was handed: that one may answer the next read differently.
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
  readApprovalDecision(decision);
}

/**
 * The decision to judge and keep, read once: `status`, `comment` and a string `seal` as given, the approver as its JSON
 * copy and an edited `input` as its canonical JSON copy (the form every store keeps; NaN, a function, a Map refused), a string `inputHash` as given, then checked as {@link assertApprovalDecision} documents, on that copy. So a
 * getter cannot show the check one approver or status and the store another (SI-4). A field no read can get (a
 * throwing getter, a revoked Proxy) and an approver without a JSON form (a cycle, a `bigint`) are refused like a
 * malformed one: `INPUT_INVALID` for the decision's own fields, `UNAUTHENTICATED` for the approver.
 *
 * @example
 * import { readApprovalDecision, type ApprovalCoordinator } from "@orpc-agent/core";
 * declare const store: ApprovalCoordinator;
 * const decide: ApprovalCoordinator["decide"] = async (id, decision) => store.decide(id, readApprovalDecision(decision));
 */
export function readApprovalDecision(decision: unknown): ApprovalDecision {
  const given = typeof decision === "object" && decision !== null ? (decision as Record<string, unknown>) : undefined;
  const read = (field: string, refusal: () => CapabilityError): unknown => {
    try {
      return given?.[field];
    } catch {
      throw refusal();
    }
  };
  const badStatus = (status: unknown) => invalid("status", 'The decision status must be "approved" or "rejected".', `Invalid decision status "${describe(status)}"`);
  const status = read("status", () => badStatus("<unreadable>"));
  if (status !== "approved" && status !== "rejected") throw badStatus(status);
  const badComment = () => invalid("comment", "The decision comment must be a string.", "The decision comment is not a string");
  const comment = read("comment", badComment);
  if (comment !== undefined && typeof comment !== "string") throw badComment();
  const approver = jsonCopy(read("approver", unauthenticated));
  if (!isWellFormedActor(approver) || approver.kind === "anonymous") throw unauthenticated();
  const seal = read("seal", () => invalid("seal", "The decision seal must be a string.", "The decision seal cannot be read"));
  const copy: ApprovalDecision = { status, approver };
  if (comment !== undefined) copy.comment = comment;
  if (typeof seal === "string") copy.seal = seal;
  // Approve with changes: the edit as its JSON copy, read once, so no getter or Proxy answers a later read otherwise (SI-6).
  const badInput = () => invalid("input", "The edited input must be a JSON value.", "The decision input cannot be read or has no JSON form");
  const input = inputCopy(read("input", badInput), badInput);
  if (input !== undefined) copy.input = input;
  const badHash = () => invalid("inputHash", "The decision inputHash must be a string.", "The decision inputHash is not a string");
  const inputHash = read("inputHash", badHash);
  if (inputHash !== undefined && typeof inputHash !== "string") throw badHash();
  if (inputHash !== undefined) copy.inputHash = inputHash;
  return copy;
}

/**
 * The edited input as every store keeps it; absent stays absent, and a value without a canonical JSON form is refused.
 * Canonical, not JSON.stringify: that one turns NaN into null, drops function-valued properties and makes a Map `{}`,
 * so the schema would judge, and the approval bind, a value the approver never sent (SI-5, SI-6).
 */
function inputCopy(input: unknown, refusal: () => CapabilityError): unknown {
  if (input === undefined) return undefined;
  let text: string;
  try {
    text = canonicalJson(input);
  } catch {
    throw refusal();
  }
  return JSON.parse(text);
}

/** The approver as a store keeps it; one that has no JSON form (a cycle, a `bigint`, a throwing read) is no approver. */
function jsonCopy(approver: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(approver);
  } catch {
    throw unauthenticated();
  }
  return text === undefined ? undefined : JSON.parse(text);
}

function unauthenticated(): CapabilityError {
  return new CapabilityError({
    code: "UNAUTHENTICATED",
    stage: "approval",
    cause: new Error("The decision approver is not a well-formed actor (non-empty string id and a valid kind), is anonymous, or cannot be read"),
  });
}

/** A status for the operator's log, never a read of anything: `String()` of an object would call its methods. */
function describe(status: unknown): string {
  return typeof status === "string" ? status : typeof status;
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
