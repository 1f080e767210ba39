import type { ExecutionResult } from "@orpc-agent/core";
import type { AISDKToolResult } from "./types.js";

/**
 * The concealed shape: what an unexpected runtime rejection becomes, so no message, stack or cause ever reaches
 * the model (adapters.md §1.2 rule 9, §2.3). Fresh per call: callers may hand it to code that mutates.
 */
export function concealedResult(): AISDKToolResult {
  return { status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } };
}

/**
 * Translates one runtime result into the tool result (adapters.md §1.5). Key order is fixed, so envelopes are
 * byte-comparable. Errors serialize through `CapabilityError#toJSON`, core's model serialization: the concealed
 * `INTERNAL_ERROR` unless exposed, `details` only for `INPUT_INVALID` (SI-9).
 */
export function toToolResult(result: ExecutionResult): AISDKToolResult {
  switch (result.status) {
    case "completed":
      // Already redacted by the runtime; never reshaped.
      return { status: "ok", data: result.output };
    case "approval-required":
      return { status: "approval-required", approvalId: result.approval.id, message: approvalMessage(result.approval.reasons) };
    case "failed":
    case "cancelled":
      return { status: "error", error: result.error.toJSON() };
    default:
      return concealedResult();
  }
}

/**
 * `"Awaiting approval: " + reasons.join("; ") + "."`, one trailing `.` dropped from each reason first so the
 * message never ends in `..`; `"Awaiting approval."` without reasons (adapters.md §1.5).
 */
export function approvalMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "Awaiting approval.";
  const trimmed = reasons.map((reason) => (reason.endsWith(".") ? reason.slice(0, -1) : reason));
  return `Awaiting approval: ${trimmed.join("; ")}.`;
}
