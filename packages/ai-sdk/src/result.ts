import type { ExecutionResult } from "@orpc-agent/core";
import { approvalMessage, CONCEALED_MESSAGE } from "@orpc-agent/core/adapter";
import type { AISDKToolResult } from "./types.js";

/**
 * The concealed shape: what an unexpected runtime rejection becomes, so no message, stack or cause ever reaches
 * the model (docs/architecture/spec/adapters.md#adapters-1-2 rule 9, docs/architecture/spec/adapters.md#adapters-2-3). Fresh per call: callers may hand it to code that mutates.
 */
export function concealedResult(): AISDKToolResult {
  return { status: "error", error: { code: "INTERNAL_ERROR", message: CONCEALED_MESSAGE, retryable: false } };
}

/**
 * Translates one runtime result into the tool result (docs/architecture/spec/adapters.md#adapters-1-5). Key order is fixed, so envelopes are
 * byte-comparable. Errors serialize through `CapabilityError#toJSON`, core's model serialization: the concealed
 * `INTERNAL_ERROR` unless exposed, `details` only for `INPUT_INVALID` (SI-9).
 */
export function toToolResult(result: ExecutionResult): AISDKToolResult {
  switch (result.status) {
    case "completed":
      // Already redacted by the runtime; never reshaped. An approval with changes says where the input that ran differs.
      return result.approvedWithChanges === undefined
        ? { status: "ok", data: result.output }
        : { status: "ok", data: result.output, approvedWithChanges: { changed: [...result.approvedWithChanges.changed] } };
    case "approval-required":
      return { status: "approval-required", approvalId: result.approval.id, message: approvalMessage(result.approval.reasons) };
    case "failed":
    case "cancelled":
      return { status: "error", error: result.error.toJSON() };
    default:
      return concealedResult();
  }
}
