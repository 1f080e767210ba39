import type { AISDKToolResult } from "../types.js";
import { HAS_APPROVAL_RESPONSE_CHUNKS } from "./native-approvals.js";

type ErrorEnvelope = Extract<AISDKToolResult, { status: "error" }>;

/**
 * Codes that mean the runtime refused to run the call: a policy or middleware said no, the actor is missing, or
 * the capability is concealed from this actor (a hidden capability answers as unknown, SI-8).
 */
const DENIAL_CODES: ReadonlySet<string> = new Set(["POLICY_DENIED", "FORBIDDEN", "UNAUTHENTICATED", "CAPABILITY_NOT_FOUND"]);

/** The id of the SDK approval a denial is rendered with: never a runtime approval id (`apr_…`), so never decidable. */
export const DENIAL_APPROVAL_PREFIX = "denied_";

/**
 * A denial renders as the SDK's `output-denied`: the codes above, and the concealed failure (`INTERNAL_ERROR`,
 * not retryable), whose cause the envelope deliberately does not tell (a policy that failed closed, a handler
 * that threw). A retryable concealed failure (`AUDIT_UNAVAILABLE`) and every other error stay `output-error`.
 */
export function isDenial(envelope: ErrorEnvelope): boolean {
  const { code, retryable } = envelope.error;
  return DENIAL_CODES.has(code) || (code === "INTERNAL_ERROR" && retryable === false);
}

/**
 * The chunks the SDK itself streams for an automatic denial (`ai` 7: `toolApproval` returning `denied`): an
 * automatic approval request, its `approved: false` response with the public message as `reason`, then
 * `tool-output-denied`. `ai` 6 streams no responses, so there the part carries the envelope as
 * `approval.descriptor` and `answerConfirmations` fills in `approved` and `reason` on the next request. Only the
 * envelope's public text travels (SI-9).
 */
export function denialChunks(toolCallId: string, envelope: ErrorEnvelope): object[] {
  const approvalId = DENIAL_APPROVAL_PREFIX + toolCallId;
  const descriptor = { status: "error", error: { code: envelope.error.code, message: envelope.error.message, retryable: envelope.error.retryable } };
  const request = { type: "tool-approval-request", toolCallId, approvalId, approvalDescriptor: descriptor };
  if (!HAS_APPROVAL_RESPONSE_CHUNKS) return [request, { type: "tool-output-denied", toolCallId }];
  return [
    { ...request, isAutomatic: true },
    { type: "tool-approval-response", approvalId, approved: false, reason: envelope.error.message },
    { type: "tool-output-denied", toolCallId },
  ];
}

/**
 * `ai` 6: completes a streamed denial's approval (`approved: false`, `reason` from the descriptor), so the part
 * has the SDK's `output-denied` shape and the next model call reads the public reason instead of the SDK's
 * generic text. Returns whether the part was one.
 */
export function completeDenial(part: { state?: unknown; approval?: { id?: unknown; approved?: unknown; reason?: unknown; descriptor?: unknown } }): boolean {
  const approval = part.approval;
  if (part.state !== "output-denied" || approval === undefined || typeof approval.id !== "string" || !approval.id.startsWith(DENIAL_APPROVAL_PREFIX)) return false;
  const descriptor = approval.descriptor as Partial<ErrorEnvelope> | undefined;
  const message = descriptor?.status === "error" ? descriptor.error?.message : undefined;
  part.approval = { ...approval, approved: false, ...(typeof message === "string" && approval.reason === undefined ? { reason: message } : {}) };
  return true;
}
