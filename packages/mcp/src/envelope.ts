import type { ApprovalRecord, CapabilityError, ExecutionResult } from "@orpc-agent/core";

/** What the model receives (adapters.md §1.5), plus `expiresAt`/`url` on approvals (§3.6). Key order is fixed. */
export type MCPEnvelope =
  | { status: "ok"; data: unknown }
  | { status: "approval-required"; approvalId: string; message: string; expiresAt: string; url?: string }
  | { status: "error"; error: MCPModelError };

export type MCPModelError = { code: string; message: string; retryable: boolean; details?: unknown };

/** How approval envelopes guide the model (adapters.md §3.7). */
export type ApprovalGuidance = {
  url?: (record: ApprovalRecord) => string | undefined;
  resumeToolName?: string;
};

const CONCEALED_ERROR: MCPModelError = Object.freeze({ code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false });

/** Unknown, unexposed, hidden and raw-id probes all look exactly like this (SI-8). */
export const NOT_FOUND_ENVELOPE: MCPEnvelope = Object.freeze({
  status: "error",
  error: Object.freeze({ code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false }),
});

/** An unexpected rejection: concealed, never a message (adapters.md §1.2 item 9). */
export const CONCEALED_ENVELOPE: MCPEnvelope = Object.freeze({ status: "error", error: CONCEALED_ERROR });

/** One deterministic envelope per status (adapters.md §1.5, §3.6). */
export function toEnvelope(result: ExecutionResult, guidance: ApprovalGuidance): MCPEnvelope {
  switch (result.status) {
    case "completed":
      return { status: "ok", data: result.output };
    case "approval-required":
      return approvalEnvelope(result.approval, guidance);
    case "failed":
    case "cancelled":
      return { status: "error", error: serializeError(result.error) };
  }
}

/**
 * The two possible outputs of §1.5 `serialize`: concealed unless exposed to the model; `details` only for
 * `INPUT_INVALID` (issue paths and messages, never values). `stage`, `cause` and stacks never cross (SI-9).
 */
export function serializeError(error: CapabilityError): MCPModelError {
  // Concealment hides the code and message, never the retryable bit (a transient AUDIT_UNAVAILABLE stays retryable).
  if (error.exposeToModel !== true) return { ...CONCEALED_ERROR, retryable: error.retryable === true };
  const out: MCPModelError = { code: error.code, message: error.publicMessage, retryable: error.retryable };
  if (error.code === "INPUT_INVALID" && error.details !== undefined) out.details = error.details;
  return out;
}

function approvalEnvelope(record: ApprovalRecord, guidance: ApprovalGuidance): MCPEnvelope {
  const url = guidance.url?.(record);
  let message = awaitingApproval(record.reasons);
  if (typeof url === "string") message += " Give the user the link in url, so that an authorized person can review and decide.";
  if (guidance.resumeToolName !== undefined) {
    message += ` Once it is approved, call ${guidance.resumeToolName} with this approvalId to run it.`;
  }
  const envelope: MCPEnvelope = {
    status: "approval-required",
    approvalId: record.id,
    message,
    expiresAt: new Date(record.expiresAt).toISOString(),
  };
  if (typeof url === "string") envelope.url = url;
  return envelope;
}

/** `"Awaiting approval: " + reasons.join("; ") + "."`, one trailing `.` dropped per reason, so never `..` (§1.5). */
function awaitingApproval(reasons: readonly string[]): string {
  if (reasons.length === 0) return "Awaiting approval.";
  return `Awaiting approval: ${reasons.map((reason) => (reason.endsWith(".") ? reason.slice(0, -1) : reason)).join("; ")}.`;
}
