import { GENERIC_MESSAGE } from "../internal/generic-message.js";
import type { FailureStage } from "./failure-stage.js";

/** The closed error-code union. Adding a member is a breaking change. docs/architecture/spec/core.md#core-9 */
export type ErrorCode =
  | "CAPABILITY_NOT_FOUND"
  | "INPUT_INVALID"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "POLICY_DENIED"
  | "POLICY_FAILED"
  | "APPROVAL_REQUIRED"
  | "APPROVAL_PENDING"
  | "APPROVAL_REJECTED"
  | "APPROVAL_EXPIRED"
  | "APPROVAL_CONSUMED"
  | "APPROVAL_ALREADY_DECIDED"
  | "APPROVAL_INPUT_MISMATCH"
  | "APPROVAL_SELF_APPROVAL"
  | "APPROVAL_UNSERIALIZABLE_INPUT"
  | "APPROVAL_RESUME_MISMATCH"
  | "APPROVAL_LINK_INVALID"
  | "APPROVAL_LINK_EXPIRED"
  | "APPROVAL_LINKS_DISABLED"
  | "APPROVAL_SWEEP_UNSUPPORTED"
  | "GRANT_NOT_ALLOWED"
  | "GRANT_EXCEEDS_CAPS"
  | "GRANT_ISSUERS_INSUFFICIENT"
  | "GRANT_NOT_FOUND"
  | "EXECUTION_FAILED"
  | "OUTPUT_INVALID"
  | "TIMEOUT"
  | "CANCELLED"
  | "AUDIT_UNAVAILABLE"
  | "ADAPTER_ERROR"
  | "INTERNAL_ERROR";

export { GENERIC_MESSAGE };

type CodeDefaults = { stage: FailureStage; retryable: boolean; exposeToModel: boolean; message: string };

const G = GENERIC_MESSAGE;

export const ERROR_CODE_DEFAULTS: Readonly<Record<ErrorCode, Readonly<CodeDefaults>>> = Object.freeze({
  CAPABILITY_NOT_FOUND: { stage: "discovery", retryable: false, exposeToModel: true, message: "Capability not found." },
  INPUT_INVALID: { stage: "input-validation", retryable: false, exposeToModel: true, message: "Input validation failed." },
  UNAUTHENTICATED: { stage: "authentication", retryable: false, exposeToModel: true, message: "Authentication is required." },
  FORBIDDEN: { stage: "authorization", retryable: false, exposeToModel: true, message: "The operation is not permitted." },
  POLICY_DENIED: { stage: "policy", retryable: false, exposeToModel: true, message: "The operation was denied by policy." },
  POLICY_FAILED: { stage: "policy", retryable: false, exposeToModel: false, message: G },
  APPROVAL_REQUIRED: { stage: "approval", retryable: false, exposeToModel: true, message: "Approval is required for this operation." },
  APPROVAL_PENDING: { stage: "approval", retryable: true, exposeToModel: true, message: "The approval decision is still pending." },
  APPROVAL_REJECTED: { stage: "approval", retryable: false, exposeToModel: true, message: "The approval was rejected." },
  APPROVAL_EXPIRED: { stage: "approval", retryable: false, exposeToModel: true, message: "The approval has expired; a new request is required." },
  APPROVAL_CONSUMED: { stage: "approval", retryable: false, exposeToModel: true, message: "The approval has already been used." },
  APPROVAL_ALREADY_DECIDED: { stage: "approval", retryable: false, exposeToModel: true, message: "The approval has already been decided." },
  APPROVAL_INPUT_MISMATCH: { stage: "approval", retryable: false, exposeToModel: false, message: G },
  APPROVAL_SELF_APPROVAL: { stage: "approval", retryable: false, exposeToModel: true, message: "The approver must differ from the requesting actor." },
  APPROVAL_UNSERIALIZABLE_INPUT: { stage: "approval", retryable: false, exposeToModel: false, message: G },
  APPROVAL_RESUME_MISMATCH: { stage: "approval", retryable: false, exposeToModel: false, message: G },
  APPROVAL_LINK_INVALID: { stage: "approval", retryable: false, exposeToModel: false, message: "The decision link is not valid." },
  APPROVAL_LINK_EXPIRED: { stage: "approval", retryable: false, exposeToModel: false, message: "The decision link has expired." },
  APPROVAL_LINKS_DISABLED: { stage: "approval", retryable: false, exposeToModel: false, message: G },
  APPROVAL_SWEEP_UNSUPPORTED: { stage: "approval", retryable: false, exposeToModel: false, message: G },
  GRANT_NOT_ALLOWED: { stage: "approval", retryable: false, exposeToModel: true, message: "No standing grant can cover this operation." },
  GRANT_EXCEEDS_CAPS: { stage: "approval", retryable: false, exposeToModel: true, message: "The grant exceeds what this operation allows." },
  GRANT_ISSUERS_INSUFFICIENT: { stage: "approval", retryable: false, exposeToModel: true, message: "These approvers cannot issue this grant." },
  GRANT_NOT_FOUND: { stage: "approval", retryable: false, exposeToModel: true, message: "The grant was not found." },
  EXECUTION_FAILED: { stage: "execution", retryable: false, exposeToModel: false, message: G },
  OUTPUT_INVALID: { stage: "output-validation", retryable: false, exposeToModel: false, message: G },
  TIMEOUT: { stage: "timeout", retryable: true, exposeToModel: true, message: "The operation timed out." },
  CANCELLED: { stage: "cancellation", retryable: false, exposeToModel: true, message: "The operation was cancelled." },
  AUDIT_UNAVAILABLE: { stage: "execution", retryable: true, exposeToModel: false, message: G },
  ADAPTER_ERROR: { stage: "adapter", retryable: false, exposeToModel: false, message: G },
  INTERNAL_ERROR: { stage: "execution", retryable: false, exposeToModel: false, message: G },
});

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODE_DEFAULTS, value);
}
