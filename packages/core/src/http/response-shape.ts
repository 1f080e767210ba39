import { readApprovedWithChanges } from "../client/approved-with-changes.js";
import type { DescribeResponse, ReconcileResult, RemoteExecutionResult } from "../client/types.js";

// A 200 is trusted only when it is this protocol's answer to this request; anything else is unreadable.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const EXECUTION_STATUSES = new Set(["completed", "approval-required", "failed", "cancelled"]);
const UNKNOWN_REASONS = new Set([
  "in-progress",
  "lease-lapsed",
  "interrupted",
  "fenced-out",
  "transport",
  "timeout",
  "aborted",
  "server-error",
  "unreadable-response",
]);
const RECONCILE_STATES = new Set(["absent", "pending", "claimed", "settled", "unknown"]);

export function isExecutionResult(v: unknown, invocationId: string): v is RemoteExecutionResult {
  if (!isObject(v) || v.protocol !== 1 || v.invocationId !== invocationId) return false;
  if (v.status === "outcome-unknown") return typeof v.message === "string" && UNKNOWN_REASONS.has(v.reason as string);
  if (!EXECUTION_STATUSES.has(v.status as string) || typeof v.executionId !== "string" || typeof v.replayed !== "boolean") return false;
  // Only a completed resume says what an approver changed, and only as pointers: anything else is not this protocol.
  if (v.approvedWithChanges !== undefined && (v.status !== "completed" || readApprovedWithChanges(v.approvedWithChanges) === null)) return false;
  if (v.status === "approval-required") return isObject(v.approval) && typeof v.approval.id === "string";
  if (v.status === "failed" || v.status === "cancelled") {
    return isObject(v.error) && typeof v.error.code === "string" && typeof v.error.message === "string" && typeof v.error.retryable === "boolean";
  }
  return true;
}

export function isDescribeResponse(v: unknown): v is DescribeResponse {
  if (!isObject(v) || v.protocol !== 1 || typeof v.namespace !== "string" || typeof v.catalogDigest !== "string") return false;
  if (!Array.isArray(v.descriptors)) return false;
  return v.descriptors.every((d) => isObject(d) && typeof d.id === "string" && typeof d.digest === "string" && isObject(d.toolNames));
}

export function isReconcileResult(v: unknown, invocationId: string): v is ReconcileResult {
  if (!isObject(v) || v.protocol !== 1 || v.invocationId !== invocationId || !RECONCILE_STATES.has(v.state as string)) return false;
  if (v.state === "settled") return isExecutionResult(v.result, invocationId);
  if (v.state === "pending" && v.result !== undefined) return isExecutionResult(v.result, invocationId);
  return true;
}
