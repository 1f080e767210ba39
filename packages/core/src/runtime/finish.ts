import type { ApprovalRecord } from "../approvals/types.js";
import type { DeniedReason } from "../audit/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import { auditEvent, durationMs, emit, type Execution } from "./execution.js";
import type { ExecutionResult } from "./types.js";

// Terminal outcomes. Each emits exactly one terminal event and ends the root span once (SI-12).

/** The receipt rides on the result only when there is one (audit.chain), so unchained results keep their shape. */
function withReceipt<R extends ExecutionResult<unknown>>(result: R, receiptId: string | undefined): R {
  if (receiptId !== undefined) (result as { receiptId?: string }).receiptId = receiptId;
  return result;
}

export function finishDenied(exec: Execution, error: CapabilityError, reason: DeniedReason): ExecutionResult<never> {
  const receiptId = emit(exec, "capability.denied", () => {
    const data: { reason: DeniedReason; publicCode: CapabilityError["code"]; policyDecisions?: Execution["policyDecisions"] } = {
      reason,
      publicCode: error.code,
    };
    if (exec.policyDecisions) data.policyDecisions = [...exec.policyDecisions];
    return data as never;
  });
  endSpanWithError(exec, error);
  return withReceipt({ status: "failed", executionId: exec.executionId, error }, receiptId);
}

/** `events`: a stream's delivered event count, carried by its terminal event. */
export type FailureOptions = { executedBeforeFailure?: true; events?: number };

export function finishFailed(exec: Execution, error: CapabilityError, options?: FailureOptions): ExecutionResult<never> {
  const effectUnknown = exec.attempts > 0;
  const receiptId = emit(exec, "capability.failed", () => {
    const data: Record<string, unknown> = { code: error.code, stage: error.stage, retryable: error.retryable, attempts: exec.attempts };
    if (options?.executedBeforeFailure) data.executedBeforeFailure = true;
    if (effectUnknown) data.effectStatus = "unknown";
    if (exec.policyDecisions) data.policyDecisions = [...exec.policyDecisions];
    if (options?.events !== undefined) data.events = options.events;
    return data as never;
  });
  endSpanWithError(exec, error);
  return withReceipt(
    effectUnknown
      ? { status: "failed", executionId: exec.executionId, error, effectStatus: "unknown" }
      : { status: "failed", executionId: exec.executionId, error },
    receiptId,
  );
}

export function finishCancelled(exec: Execution, error: CapabilityError, events?: number): ExecutionResult<never> {
  const effectUnknown = exec.attempts > 0;
  const receiptId = emit(exec, "capability.cancelled", () => {
    const data: Record<string, unknown> = { code: error.code, durationMs: durationMs(exec) };
    if (effectUnknown) data.effectStatus = "unknown";
    if (events !== undefined) data.events = events;
    return data as never;
  });
  endSpanWithError(exec, error, "cancelled");
  return withReceipt(
    effectUnknown
      ? { status: "cancelled", executionId: exec.executionId, error, effectStatus: "unknown" }
      : { status: "cancelled", executionId: exec.executionId, error },
    receiptId,
  );
}

/** An invariant broken inside the runtime itself (invoke's last guard): still exactly one governed envelope. */
export function finishInternalFailure(exec: Execution, cause: unknown): ExecutionResult<never> {
  return finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", cause }));
}

/** TIMEOUT and CANCELLED end as `cancelled`; every other failure as `failed`. */
export function finishWithError(exec: Execution, error: CapabilityError, options?: FailureOptions): ExecutionResult<never> {
  return error.code === "TIMEOUT" || error.code === "CANCELLED" ? finishCancelled(exec, error, options?.events) : finishFailed(exec, error, options);
}

/** `events` (streams only): the delivered event count, on the terminal event and as the result's `eventCount`. */
export function finishCompleted<O>(exec: Execution, output: O, events?: number): ExecutionResult<O> {
  let receiptId: string | undefined;
  if (exec.rt.audit.enabled) {
    const end = exec.rt.now();
    const data: { durationMs: number; attempts: number; events?: number } = { durationMs: durationMs(exec, end), attempts: exec.attempts };
    if (events !== undefined) data.events = events;
    receiptId = exec.rt.audit.emit(auditEvent(exec, "capability.completed", data, end));
  }
  if (exec.rt.tracing) {
    exec.span.setAttributes({ "orpc_agent.outcome": "completed", "orpc_agent.attempt": exec.attempts });
    exec.span.end("ok");
  }
  return withReceipt(
    events === undefined
      ? { status: "completed", executionId: exec.executionId, output }
      : { status: "completed", executionId: exec.executionId, output, eventCount: events },
    receiptId,
  );
}

export function finishSuspended(exec: Execution, approval: ApprovalRecord): ExecutionResult<never> {
  if (exec.rt.tracing) {
    exec.span.setAttributes({ "orpc_agent.outcome": "approval-required", "orpc_agent.approval_id": approval.id, "orpc_agent.attempt": exec.attempts });
    exec.span.end("ok");
  }
  return { status: "approval-required", executionId: exec.executionId, approval };
}

function endSpanWithError(exec: Execution, error: CapabilityError, outcome: "failed" | "cancelled" = "failed"): void {
  if (!exec.rt.tracing) return;
  exec.span.setAttributes({ "orpc_agent.outcome": outcome, "orpc_agent.error_code": error.code, "orpc_agent.attempt": exec.attempts });
  // The span gets the public error only, rebuilt without cause or details (docs/architecture/spec/core.md#core-12, SI-10).
  exec.span.recordError(
    new CapabilityError({ code: error.code, stage: error.stage, publicMessage: error.publicMessage, retryable: error.retryable, exposeToModel: error.exposeToModel }),
  );
  exec.span.end("error");
}
