import type { ApprovalRecord } from "../../approvals/types.js";
import { REMOTE_PROTOCOL } from "../../client/protocol.js";
export { outcomeUnknown } from "../../client/outcome-unknown.js";
import type { OutcomeUnknown, RemoteApproval, RemoteError, RemoteExecutionResult } from "../../client/types.js";
import { toModelError, type CapabilityError } from "../../errors/capability-error.js";
import { GENERIC_MESSAGE } from "../../errors/codes.js";
import type { ExecutionResult } from "../../runtime/types.js";

// The one projection point for the wire and for engine checkpoints: plain data, no cause, stage or
// non-exposed message (SI-9; docs/architecture/spec/distributed.md#distributed-3-1).

export type SettledOrSuspended<O = unknown> = Exclude<RemoteExecutionResult<O>, OutcomeUnknown>;

export const GENERIC_ERROR: RemoteError = Object.freeze({ code: "INTERNAL_ERROR", message: GENERIC_MESSAGE, retryable: false }) as RemoteError;

export function toRemoteApproval(record: ApprovalRecord): RemoteApproval {
  return {
    id: record.id,
    capabilityId: record.capabilityId,
    status: record.status,
    reasons: [...record.reasons],
    types: [...record.types],
    requestedAt: new Date(record.requestedAt).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
  };
}

export function toRemoteError(error: CapabilityError): RemoteError {
  return { ...toModelError(error) };
}

export function projectResult<O>(result: ExecutionResult<O>, invocationId: string): SettledOrSuspended<O> {
  const base = { protocol: REMOTE_PROTOCOL, invocationId, executionId: result.executionId, replayed: false };
  switch (result.status) {
    case "completed":
      // What the approver changed travels as the local result carries it (pointers only), and is journaled with it.
      return result.approvedWithChanges === undefined
        ? { ...base, status: "completed", output: result.output }
        : { ...base, status: "completed", output: result.output, approvedWithChanges: { changed: [...result.approvedWithChanges.changed] } };
    case "approval-required":
      return { ...base, status: "approval-required", approval: toRemoteApproval(result.approval) };
    default: {
      const out: SettledOrSuspended<O> = { ...base, status: result.status, error: toRemoteError(result.error) };
      if (result.effectStatus === "unknown") out.effectStatus = "unknown";
      return out;
    }
  }
}

/** A failure the service answers without entering the runtime: no execution, so `executionId` is `""`. */
export function serviceFailure<O>(invocationId: string, error: RemoteError): SettledOrSuspended<O> {
  return { protocol: REMOTE_PROTOCOL, invocationId, executionId: "", replayed: false, status: "failed", error: { ...error } };
}
