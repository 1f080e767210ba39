import { readApprovedWithChanges, type RemoteExecutionResult } from "@orpc-agent/core/client";
import { approvalMessage, CONCEALED_MESSAGE } from "@orpc-agent/core/adapter";
import type { RemoteAISDKToolResult } from "./types.js";

type ModelError = Extract<RemoteAISDKToolResult, { status: "error" }>["error"];

/** Wording decided in docs/architecture/spec/adapters.md#adapters-2-6. */
export const OUTCOME_UNKNOWN_MESSAGE = "The outcome of this operation could not be confirmed. Do not repeat it until it has been reconciled.";

/** The concealed shape (docs/architecture/spec/adapters.md#adapters-1-5): fresh per call, since callers may hand it to code that mutates. */
export function concealedRemoteResult(): RemoteAISDKToolResult {
  return { status: "error", error: { code: "INTERNAL_ERROR", message: CONCEALED_MESSAGE, retryable: false } };
}

/** Whether the effect happened cannot be said: the app reconciles this invocation before any further write (D-4). */
export function outcomeUnknownResult(invocationId: string): RemoteAISDKToolResult {
  return { status: "outcome-unknown", invocationId, message: OUTCOME_UNKNOWN_MESSAGE };
}

/**
 * Translates what the client reported for the invocation `invocationId` (docs/architecture/spec/adapters.md#adapters-2-6). Total: an answer it
 * cannot read was still sent, so its effect is uncertain and it reads as `outcome-unknown`, never as an error.
 */
export function toRemoteToolResult(result: RemoteExecutionResult, invocationId: string): RemoteAISDKToolResult {
  if (typeof result !== "object" || result === null) return outcomeUnknownResult(invocationId);
  switch (result.status) {
    case "completed": {
      // Already redacted by the server's runtime; never reshaped. What an approver changed is told as the local tool
      // tells it; a malformed claim is refused, never passed on or dropped, since the model must not take the
      // input it sent for the one that ran.
      const changes = readApprovedWithChanges((result as { approvedWithChanges?: unknown }).approvedWithChanges);
      if (changes === null) return outcomeUnknownResult(invocationId);
      return changes === undefined ? { status: "ok", data: result.output } : { status: "ok", data: result.output, approvedWithChanges: changes };
    }
    case "approval-required": {
      const approval = result.approval as Partial<typeof result.approval> | undefined;
      if (typeof approval?.id !== "string" || !Array.isArray(approval.reasons)) return outcomeUnknownResult(invocationId);
      return { status: "approval-required", approvalId: approval.id, message: approvalMessage(approval.reasons), invocationId };
    }
    case "failed":
    case "cancelled": {
      const error = wireModelError(result.error);
      return error === undefined ? outcomeUnknownResult(invocationId) : { status: "error", error };
    }
    default:
      // `outcome-unknown`, or a status this version does not know.
      return outcomeUnknownResult(invocationId);
  }
}

/**
 * docs/architecture/spec/adapters.md#adapters-1-5 `serialize` over an error the client reports, already in core's model serialization (SI-9): rebuilt with
 * the fixed key order, the concealed shape for codes never exposed, `details` only for `INPUT_INVALID`.
 * `undefined` when there is no readable error. Core's `toModelError` takes a `CapabilityError`; this reads what the
 * wire brought, which no `CapabilityError` backs.
 */
function wireModelError(error: unknown): ModelError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, retryable, details } = error as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string" || typeof retryable !== "boolean") return undefined;
  // docs/architecture/spec/distributed.md#distributed-1: INTERNAL_ERROR and ADAPTER_ERROR are never exposed; the server's retryable bit is kept, so a
  // concealed transient failure (AUDIT_UNAVAILABLE) stays retryable.
  if (code === "INTERNAL_ERROR" || code === "ADAPTER_ERROR") return { code: "INTERNAL_ERROR", message: CONCEALED_MESSAGE, retryable };
  const out: ModelError = { code, message, retryable };
  if (code === "INPUT_INVALID" && details !== undefined) out.details = details;
  return out;
}
