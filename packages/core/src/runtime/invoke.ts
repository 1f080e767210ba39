import { isWellFormedActor, type Actor } from "../vocabulary/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import { capabilityNotFound } from "../errors/concealed.js";
import { newExecutionId } from "../internal/ids.js";
import { inputSnapshot } from "../internal/input-snapshot.js";
import { captureActor } from "./capture-actor.js";
import { isPromiseLike } from "../internal/promise.js";
import { auditEvent, createExecution, type Execution } from "./execution.js";
import { finishDenied, finishFailed, finishInternalFailure, finishSuspended } from "./finish.js";
import type { ApprovalDemand, PolicyBatchResult } from "../policy/evaluate-batch.js";
import { runPolicyBatch, policyRefusal } from "./stages/policies.js";
import { runApprovalGate, type GateOutcome } from "./stages/approval-gate.js";
import { ensureInputHash } from "./stages/input-hash.js";
import { unrepresentableInput, validateInput, type Validated } from "./stages/validate-input.js";
import { isConcealedFrom } from "./stages/visibility.js";
import { runExecutionTail, type ExecutionTail } from "./execute-tail.js";
import { assertExecutionOptions } from "./options.js";
import type { RuntimeState } from "./state.js";
import type { ExecutionOptions, ExecutionResult } from "./types.js";

/**
 * `runtime.invoke`: stages 2..15 of docs/architecture/spec/core.md#core-6, in order. Never throws for governed outcomes.
 * Stages run synchronously for as long as nothing they call returns a promise; only a stage that really waits
 * continues in a promise, so a call whose policies and schema are synchronous holds no frame while its procedure
 * runs (issue 28). Every branch that continues later carries the last guard (`guarded`).
 */
export function invoke<O>(rt: RuntimeState, id: string, rawInput: unknown, options: ExecutionOptions<unknown>): Promise<ExecutionResult<O>> {
  let exec: Execution;
  let actor: unknown;
  try {
    const surface = assertExecutionOptions(id, options);
    // Stage 2: identity and the first event, before resolution. The actor is read once, here (SI-3).
    actor = captureActor(options.actor);
    exec = createExecution(rt, { executionId: newExecutionId(), capabilityId: id, surface, actor, correlationId: options.correlationId });
    // Only when given: a call without a conversation keeps today's execution shape (issue 28).
    if (options.conversationId !== undefined) exec.conversationId = options.conversationId;
  } catch (error) {
    // Programmer errors (bad options) reject, as an async function would.
    return Promise.reject(error);
  }
  let result: ExecutionResult<unknown> | Promise<ExecutionResult<unknown>>;
  try {
    try {
      result = runStages(exec, rawInput, actor, options);
    } catch (cause) {
      result = finishInternalFailure(exec, cause);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return (isPromiseLike(result) ? result : Promise.resolve(result)) as Promise<ExecutionResult<O>>;
}

function guarded(exec: Execution, later: Promise<ExecutionResult<unknown>>): Promise<ExecutionResult<unknown>> {
  return later.catch((cause) => finishInternalFailure(exec, cause));
}

type Later = ExecutionResult<unknown> | Promise<ExecutionResult<unknown>>;

function runStages(exec: Execution, rawInput: unknown, capturedActor: unknown, options: ExecutionOptions<unknown>): Later {
  const { rt } = exec;
  // Stage 3: resolve.
  const plan = rt.plans.get(exec.capabilityId);
  // Stage 2's instant: `capability.requested` shares the execution's start time.
  if (rt.audit.enabled) rt.audit.emit(auditEvent(exec, "capability.requested", plan ? { sideEffect: plan.meta.sideEffect, risk: plan.meta.risk } : {}, exec.startedAt));
  if (!plan) return finishDenied(exec, capabilityNotFound(), "unknown");
  exec.plan = plan;
  if (rt.tracing) exec.span.setAttributes({ "orpc_agent.side_effect": plan.meta.sideEffect, "orpc_agent.risk": plan.meta.risk });

  // Stage 4: exposure (SI-1).
  if (!plan.exposed[exec.surface]) return finishDenied(exec, capabilityNotFound(), "not-exposed");

  // Stage 5: validate; the parsed value is what later stages see (SI-6).
  const validated = validateInput(plan.inputSchema, rawInput);
  if (isPromiseLike(validated)) return guarded(exec, validated.then((v) => afterValidation(exec, v, rawInput, capturedActor, options)));
  return afterValidation(exec, validated, rawInput, capturedActor, options);
}

/** Field paths, or the failure to bind a value, would reveal a capability this actor cannot see (SI-8). */
function concealedOr(exec: Execution, capturedActor: unknown, options: ExecutionOptions<unknown>, error: CapabilityError): Later {
  const concealed = isConcealedFrom(exec, capturedActor, options.context);
  const answer = (hidden: boolean) => (hidden ? finishDenied(exec, capabilityNotFound(), "hidden") : finishFailed(exec, error));
  return isPromiseLike(concealed) ? guarded(exec, concealed.then(answer)) : answer(concealed);
}

function afterValidation(exec: Execution, validated: Validated | CapabilityError, rawInput: unknown, capturedActor: unknown, options: ExecutionOptions<unknown>): Later {
  const { rt } = exec;
  const plan = exec.plan!;
  if (validated instanceof CapabilityError) return concealedOr(exec, capturedActor, options, validated);
  let input = validated.value;
  const observed =
    plan.policies.invocation[exec.surface].length > 0 ||
    plan.policies.execution[exec.surface].length > 0 ||
    plan.shadowPolicies.invocation[exec.surface].length > 0 ||
    plan.shadowPolicies.execution[exec.surface].length > 0;
  if (rt.audit.enabled || plan.approvalRequired || observed) {
    // Someone will look at the input: from here on every observer and the handler share one frozen snapshot (SI-6).
    try {
      // Marked when plain JSON only where a grant may cover the call, which then need not serialize it (issue 45).
      input = inputSnapshot(input, plan.meta.approval?.grants === undefined ? undefined : exec);
    } catch (cause) {
      // Refused before any policy or the handler runs, and, like any invalid input, never telling hidden from unknown (SI-8).
      return concealedOr(exec, capturedActor, options, unrepresentableInput(cause));
    }
  }
  if (rt.audit.enabled) {
    const hashing = ensureInputHash(exec, input);
    if (isPromiseLike(hashing)) return guarded(exec, hashing.then(() => afterInputBound(exec, input, rawInput, capturedActor, options)));
  }
  return afterInputBound(exec, input, rawInput, capturedActor, options);
}

function afterInputBound(exec: Execution, input: unknown, rawInput: unknown, capturedActor: unknown, options: ExecutionOptions<unknown>): Later {
  const plan = exec.plan!;
  // Stage 6: the actor comes from the adapter, never from input (SI-3).
  if (!isWellFormedActor(capturedActor)) {
    // Without an actor nobody can show the capability is visible: where discovery could hide it, it is unknown (SI-8).
    if (plan.policies.discovery[exec.surface].length > 0) return finishDenied(exec, capabilityNotFound(), "hidden");
    return finishFailed(exec, new CapabilityError({ code: "UNAUTHENTICATED" }));
  }
  const actor: Actor = capturedActor;

  // Stage 7: invocation policies.
  const invocationPolicies = plan.policies.invocation[exec.surface];
  const invocationShadows = plan.shadowPolicies.invocation[exec.surface];
  if (invocationPolicies.length === 0 && invocationShadows.length === 0) return approvalStage(exec, actor, input, rawInput, options, NO_DEMANDS);
  const batch = runPolicyBatch(exec, "invocation", invocationPolicies, { actor, context: options.context, input }, invocationShadows);
  if (isPromiseLike(batch)) return guarded(exec, batch.then((b) => afterInvocationPolicies(exec, actor, input, rawInput, options, b)));
  return afterInvocationPolicies(exec, actor, input, rawInput, options, batch);
}

function afterInvocationPolicies(exec: Execution, actor: Actor, input: unknown, rawInput: unknown, options: ExecutionOptions<unknown>, batch: PolicyBatchResult): Later {
  const refusal = policyRefusal(batch);
  return refusal ? finishDenied(exec, refusal.error, refusal.reason) : approvalStage(exec, actor, input, rawInput, options, batch.approvals);
}

const NO_DEMANDS: readonly ApprovalDemand[] = Object.freeze([]);

function approvalStage(exec: Execution, actor: Actor, input: unknown, rawInput: unknown, options: ExecutionOptions<unknown>, demands: readonly ApprovalDemand[]): Later {
  // Stage 8: approval gate.
  if (!exec.plan!.approvalRequired && demands.length === 0) return tail(exec, actor, input, rawInput, options, demands, undefined, []);
  // A call a grant covers from the in-memory store is decided in this tick (issue 45).
  const gate = runApprovalGate(exec, { actor, input, submittedInput: rawInput, demands });
  if (isPromiseLike(gate)) return guarded(exec, gate.then((g) => afterGate(exec, actor, input, rawInput, options, demands, g)));
  return afterGate(exec, actor, input, rawInput, options, demands, gate);
}

function afterGate(exec: Execution, actor: Actor, input: unknown, rawInput: unknown, options: ExecutionOptions<unknown>, demands: readonly ApprovalDemand[], gate: GateOutcome): Later {
  if (gate.kind === "error") return finishFailed(exec, gate.error);
  if (gate.kind === "suspended") return finishSuspended(exec, gate.record);
  return tail(exec, actor, input, rawInput, options, demands, gate.approval, gate.types, gate.quorum);
}

function tail(
  exec: Execution,
  actor: Actor,
  input: unknown,
  rawInput: unknown,
  options: ExecutionOptions<unknown>,
  demands: readonly ApprovalDemand[],
  approval: ExecutionTail["approval"],
  approvalTypes: readonly string[],
  approvalQuorum?: number,
): Later {
  // Stages 9..15 are shared with resume.
  const stages: ExecutionTail = {
    actor,
    context: options.context,
    validatedInput: input,
    callInput: input,
    submittedInput: rawInput,
    approval,
    approvalTypes,
    priorDemands: demands,
    signal: options.signal,
    idempotencyKey: options.idempotencyKey,
    invocationId: options.invocationId,
    onProgress: options.onProgress,
    onEvent: options.onEvent,
    allowLateApproval: approval === undefined,
    guarded: true,
    // A grant's issuers may meet a quorum, which a later execution-phase demand then need not ask again (R10). Always
    // present (undefined: one approver), so a covered call's tail has the same shape as any other (issue 45).
    approvalQuorum,
  };
  return runExecutionTail(exec, stages);
}
