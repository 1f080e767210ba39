import { isWellFormedActor, type Actor } from "../capability/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import { capabilityNotFound } from "../errors/concealed.js";
import { newExecutionId } from "../internal/ids.js";
import { inputSnapshot } from "../internal/input-snapshot.js";
import { captureActor } from "./capture-actor.js";
import { isPromiseLike } from "../internal/promise.js";
import { createExecution, emit, type Execution } from "./execution.js";
import { finishDenied, finishFailed, finishSuspended } from "./finish.js";
import type { ApprovalDemand } from "../policy/evaluate-batch.js";
import { runPolicyBatch, policyRefusal } from "./stages/policies.js";
import { runApprovalGate } from "./stages/approval-gate.js";
import { ensureInputHash } from "./stages/input-hash.js";
import { validateInput } from "./stages/validate-input.js";
import { isConcealedFrom } from "./stages/visibility.js";
import { runExecutionTail, type ExecutionTail } from "./execute-tail.js";
import { assertExecutionOptions } from "./options.js";
import type { RuntimeState } from "./state.js";
import type { ExecutionOptions, ExecutionResult } from "./types.js";

/** `runtime.invoke`: stages 2..15 of core.md §6, in order. Never throws for governed outcomes. */
export function invoke<O>(rt: RuntimeState, id: string, rawInput: unknown, options: ExecutionOptions<unknown>): Promise<ExecutionResult<O>> {
  try {
    const surface = assertExecutionOptions(id, options);
    // Stage 2: identity and the first event, before resolution. The actor is read once, here (SI-3).
    const actor = captureActor(options.actor);
    const exec = createExecution(rt, { executionId: newExecutionId(), capabilityId: id, surface, actor, correlationId: options.correlationId });
    // An invariant broken inside the runtime itself still ends in exactly one governed envelope.
    return runStages(exec, rawInput, actor, options).catch((cause) => finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", cause }))) as Promise<
      ExecutionResult<O>
    >;
  } catch (error) {
    // Programmer errors (bad options) reject, as an async function would.
    return Promise.reject(error);
  }
}

async function runStages(exec: Execution, rawInput: unknown, capturedActor: unknown, options: ExecutionOptions<unknown>): Promise<ExecutionResult<unknown>> {
  const { rt } = exec;
  // Stage 3: resolve.
  const plan = rt.plans.get(exec.capabilityId);
  // Stage 2's instant: `capability.requested` shares the execution's start time.
  emit(exec, "capability.requested", () => (plan ? { sideEffect: plan.meta.sideEffect, risk: plan.meta.risk } : {}), exec.startedAt);
  if (!plan) return finishDenied(exec, capabilityNotFound(), "unknown");
  exec.plan = plan;
  if (rt.tracing) exec.span.setAttributes({ "orpc_agent.side_effect": plan.meta.sideEffect, "orpc_agent.risk": plan.meta.risk });

  // Stage 4: exposure (SI-1).
  if (!plan.exposed[exec.surface]) return finishDenied(exec, capabilityNotFound(), "not-exposed");

  // Stage 5: validate; the parsed value is what later stages see (SI-6).
  let validated = validateInput(plan.inputSchema, rawInput);
  if (isPromiseLike(validated)) validated = await validated;
  if (validated instanceof CapabilityError) {
    // Field paths would reveal a capability this actor cannot see (SI-8).
    let concealed = isConcealedFrom(exec, capturedActor, options.context);
    if (isPromiseLike(concealed)) concealed = await concealed;
    return concealed ? finishDenied(exec, capabilityNotFound(), "hidden") : finishFailed(exec, validated);
  }
  let input = validated.value;
  const invocationPolicies = plan.policies.invocation[exec.surface];
  const executionPolicies = plan.policies.execution[exec.surface];
  const invocationShadows = plan.shadowPolicies.invocation[exec.surface];
  const observed =
    invocationPolicies.length > 0 || executionPolicies.length > 0 || invocationShadows.length > 0 || plan.shadowPolicies.execution[exec.surface].length > 0;
  if (rt.audit.enabled || plan.approvalRequired || observed) {
    // Someone will look at the input: from here on every observer and the handler share one frozen snapshot (SI-6).
    try {
      input = inputSnapshot(input);
    } catch (cause) {
      // A value that cannot be bound (a Proxy, nesting past the stack) must not tell hidden from unknown (SI-8).
      let concealed = isConcealedFrom(exec, capturedActor, options.context);
      if (isPromiseLike(concealed)) concealed = await concealed;
      return concealed ? finishDenied(exec, capabilityNotFound(), "hidden") : finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", cause }));
    }
  }
  if (rt.audit.enabled) {
    const hashing = ensureInputHash(exec, input);
    if (isPromiseLike(hashing)) await hashing;
  }

  // Stage 6: the actor comes from the adapter, never from input (SI-3).
  if (!isWellFormedActor(capturedActor)) {
    // Without an actor nobody can show the capability is visible: where discovery could hide it, it is unknown (SI-8).
    if (plan.policies.discovery[exec.surface].length > 0) return finishDenied(exec, capabilityNotFound(), "hidden");
    return finishFailed(exec, new CapabilityError({ code: "UNAUTHENTICATED" }));
  }
  const actor: Actor = capturedActor;

  // Stage 7: invocation policies.
  let demands: ApprovalDemand[] = [];
  if (invocationPolicies.length > 0 || invocationShadows.length > 0) {
    let batch = runPolicyBatch(exec, "invocation", invocationPolicies, { actor, context: options.context, input }, invocationShadows);
    if (isPromiseLike(batch)) batch = await batch;
    const refusal = policyRefusal(batch);
    if (refusal) return finishDenied(exec, refusal.error, refusal.reason);
    demands = batch.approvals;
  }

  // Stage 8: approval gate.
  let approval: ExecutionTail["approval"];
  let approvalTypes: readonly string[] = [];
  if (plan.approvalRequired || demands.length > 0) {
    const gate = await runApprovalGate(exec, { actor, input, submittedInput: rawInput, demands });
    if (gate.kind === "error") return finishFailed(exec, gate.error);
    if (gate.kind === "suspended") return finishSuspended(exec, gate.record);
    approval = gate.approval;
    approvalTypes = gate.types;
  }

  // Stages 9..15 are shared with resume.
  return runExecutionTail(exec, {
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
    allowLateApproval: approval === undefined,
  });
}
