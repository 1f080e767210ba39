import type { ApprovalRecord, CapabilityError, ExecutionResult } from "@orpc-agent/core";
import { approvalMessage, CONCEALED_MESSAGE, NOT_FOUND_MESSAGE, toModelError } from "@orpc-agent/core/adapter";

/** What the model receives (docs/architecture/spec/adapters.md#adapters-1-5), plus `expiresAt`/`url` on approvals (docs/architecture/spec/adapters.md#adapters-3-6). Key order is fixed. */
export type MCPEnvelope =
  | { status: "ok"; data: unknown }
  | { status: "approval-required"; approvalId: string; message: string; expiresAt: string; url?: string }
  | { status: "error"; error: MCPModelError };

export type MCPModelError = { code: string; message: string; retryable: boolean; details?: unknown };

/** How approval envelopes guide the model (docs/architecture/spec/adapters.md#adapters-3-7). */
export type ApprovalGuidance = {
  url?: (record: ApprovalRecord) => string | undefined;
  resumeToolName?: string;
};

const CONCEALED_ERROR: MCPModelError = Object.freeze({ code: "INTERNAL_ERROR", message: CONCEALED_MESSAGE, retryable: false });

/** Unknown, unexposed, hidden and raw-id probes all look exactly like this (SI-8). */
export const NOT_FOUND_ENVELOPE: MCPEnvelope = Object.freeze({
  status: "error",
  error: Object.freeze({ code: "CAPABILITY_NOT_FOUND", message: NOT_FOUND_MESSAGE, retryable: false }),
});

/** An unexpected rejection: concealed, never a message (docs/architecture/spec/adapters.md#adapters-1-2 item 9). */
export const CONCEALED_ENVELOPE: MCPEnvelope = Object.freeze({ status: "error", error: CONCEALED_ERROR });

/** One deterministic envelope per status (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-3-6). */
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

/** Core's model serialization (SI-9): concealed unless exposed, `details` only for `INPUT_INVALID`. */
export function serializeError(error: CapabilityError): MCPModelError {
  return toModelError(error);
}

function approvalEnvelope(record: ApprovalRecord, guidance: ApprovalGuidance): MCPEnvelope {
  const url = guidance.url?.(record);
  let message = approvalMessage(record.reasons);
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
