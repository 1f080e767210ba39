import { hashCanonicalInputAnywhere } from "../approvals/hash.js";
import { approvalDefinition, wideningSince } from "./approvals/definition.js";
import { approvedEditOf, changedPointers } from "./approvals/approved-edit.js";
import type { ApprovalSealer } from "../approvals/seal/sealer.js";
import type { ApprovalRecord } from "../approvals/types.js";
import type { ApprovalDemand } from "../policy/evaluate-batch.js";
import { isAcceptableApprover } from "../approvals/approver.js";
import { isExpired } from "../approvals/expiry.js";
import { quorumOf, showsQuorum } from "../approvals/quorum.js";
import { refusesSelfApproval } from "../approvals/self-approval.js";
import { recordApprovers, refusesActingAgent } from "../approvals/acting-agent.js";
import { sameApprover } from "../approvals/approver-identity.js";
import { isWellFormedActor, type Actor } from "../vocabulary/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import { capabilityNotFound } from "../errors/concealed.js";
import { frozenCopy } from "../internal/deep-freeze.js";
import { newExecutionId } from "../internal/ids.js";
import { isPromiseLike } from "../internal/promise.js";
import { captureActor } from "./capture-actor.js";
import { matchesRequester } from "./resume-guard.js";
import { createExecution, type Execution } from "./execution.js";
import { runExecutionTail } from "./execute-tail.js";
import { finishDenied, finishFailed } from "./finish.js";
import { assertResumeOptions } from "./options.js";
import { policyRefusal, runPolicyBatch } from "./stages/policies.js";
import { revalidateApprovedInput } from "./stages/revalidate-approved.js";
import type { RuntimeState } from "./state.js";
import type { ExecutionResult, ResumeOptions } from "./types.js";

const UNKNOWN_CALLER: Actor = Object.freeze({ id: "unknown", kind: "anonymous" });

/**
 * `runtime.resume`: checks R1..R12 of docs/architecture/spec/core.md#core-7 in order. R1..R10 precede consumption, so drift, lost exposure or
 * a current refusal never burns an approval. Runs as the original requester, never as approver or caller.
 */
export async function resume<O>(rt: RuntimeState, approvalId: string, options: ResumeOptions<unknown>): Promise<ExecutionResult<O>> {
  assertResumeOptions(approvalId, options);
  const executionId = newExecutionId();
  let record: ApprovalRecord | null;
  try {
    const fetched = await rt.coordinator.get(approvalId);
    // Read once: every check below sees the same fields, whatever getters a coordinator's record has (SI-5). Frozen,
    // because policies see it as req.approval: none may rewrite the types, approver or actor the execution uses.
    record = fetched === null ? null : frozenCopy({ ...fetched });
  } catch (cause) {
    const exec = callerExecution(rt, executionId, approvalId, options);
    return finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause })) as ExecutionResult<O>;
  }
  // R1: an unknown id looks exactly like a guard mismatch from outside (SI-8). With `approvals.seal`, so does a
  // record the runtime did not seal as stored: an edited or minted row is checked before anything else reads it.
  if (record !== null && rt.sealer !== undefined && !(await verifiesOrFalse(rt.sealer, record))) record = null;
  if (record === null) {
    const exec = callerExecution(rt, executionId, approvalId, options);
    return finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval" })) as ExecutionResult<O>;
  }
  // R2: binding guards, before any status check; the record is untouched.
  const actorMatches = options.expectedActor === undefined || matchesRequester(options.expectedActor, record.actor);
  const surfaceMatches = options.expectedSurface === undefined || options.expectedSurface === record.surface;
  if (!actorMatches || !surfaceMatches) {
    const exec = callerExecution(rt, executionId, approvalId, options, record.capabilityId);
    return finishFailed(exec, new CapabilityError({ code: "APPROVAL_RESUME_MISMATCH" })) as ExecutionResult<O>;
  }

  const exec = createExecution(rt, {
    executionId,
    capabilityId: record.capabilityId,
    surface: record.surface,
    actor: record.actor,
    correlationId: options.correlationId,
    approvalId: record.id,
  });
  exec.inputHash = record.inputHash;
  exec.inputHashed = true;
  // The call resumes in the conversation it came from: a grant covering a late demand is judged against it (SI-13).
  if (typeof record.conversationId === "string") exec.conversationId = record.conversationId;
  try {
    return (await runChecks(exec, record, options)) as ExecutionResult<O>;
  } catch (cause) {
    return finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", cause })) as ExecutionResult<O>;
  }
}

async function verifiesOrFalse(sealer: ApprovalSealer, record: ApprovalRecord): Promise<boolean> {
  try {
    return await sealer.verifyRecord(record);
  } catch {
    return false;
  }
}

/** R1/R2 failures are recorded under the caller's stated identity and surface, never the record's. */
function callerExecution(rt: RuntimeState, executionId: string, approvalId: string, options: ResumeOptions<unknown>, capabilityId?: string): Execution {
  const exec = createExecution(rt, {
    executionId,
    capabilityId: capabilityId ?? "",
    surface: options.expectedSurface ?? "direct",
    actor: options.expectedActor ?? UNKNOWN_CALLER,
    correlationId: options.correlationId,
    approvalId,
  });
  return exec;
}

async function runChecks(exec: Execution, record: ApprovalRecord, options: ResumeOptions<unknown>): Promise<ExecutionResult<unknown>> {
  const { rt } = exec;
  // R3: status, with expiry on the runtime clock even if the coordinator still says approved.
  const statusError = statusRefusal(record, rt.now());
  if (statusError) return finishFailed(exec, statusError);

  // R4: defence in depth for records decided directly through a coordinator (SI-4).
  const quorum = quorumOf(record);
  const approverIds = approverIdsOf(record);
  if (approverIds.some((id) => sameApprover(id, record.actor.id)) && refusesSelfApproval(rt, record.types, quorum)) {
    return finishFailed(exec, new CapabilityError({ code: "APPROVAL_SELF_APPROVAL" }));
  }
  // R4, quorum: an approved record must show that many distinct approvers, whatever its coordinator claims.
  if (quorum > 1 && !showsQuorum(record, quorum)) {
    return finishFailed(exec, new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause: new Error(`Approval "${record.id}" is approved without its quorum of ${quorum} distinct approvers`) }));
  }
  // R4, separation of duties: no approver may be the agent that carried the request, nor act through it (SI-4).
  if (refusesActingAgent(rt, record.actor, recordApprovers(record), quorum)) {
    return finishFailed(exec, new CapabilityError({ code: "APPROVAL_SELF_APPROVAL" }));
  }
  // R5: the stored input must still be exactly what was approved (SI-5).
  const storedHash = await hashCanonicalInputAnywhere(record.input);
  if (storedHash === undefined || storedHash !== record.inputHash) {
    return finishFailed(exec, new CapabilityError({ code: "APPROVAL_INPUT_MISMATCH" }));
  }
  // R5, approved with changes: the edit is what executes, so it must still be exactly what its hash binds (SI-5).
  const edit = approvedEditOf(record);
  if (edit === null || (edit !== undefined && (await hashCanonicalInputAnywhere(edit.input)) !== edit.inputHash)) {
    return finishFailed(exec, new CapabilityError({ code: "APPROVAL_INPUT_MISMATCH" }));
  }
  // From here the execution is audited under the hash of what it runs.
  if (edit !== undefined) exec.inputHash = edit.inputHash;
  // R6, R7: the current registry and exposure decide.
  const plan = rt.plans.get(record.capabilityId);
  if (!plan) return finishDenied(exec, capabilityNotFound(), "unknown");
  exec.plan = plan;
  if (rt.tracing) exec.span.setAttributes({ "orpc_agent.side_effect": plan.meta.sideEffect, "orpc_agent.risk": plan.meta.risk });
  if (!plan.exposed[record.surface]) return finishDenied(exec, capabilityNotFound(), "not-exposed");
  // The governance the approver saw must not have widened since (issue 29); a narrowing or neutral edit is fine.
  if (typeof record.definitionDigest === "string") {
    const widened = await wideningSince(record, await approvalDefinition(plan, record.surface));
    if (widened.length > 0) return finishDenied(exec, governanceWidened(widened.map((c) => c.message)), "policy-denied");
  }

  // R8: the current schema must give exactly the approved value; otherwise fail closed, unconsumed (SI-5, SI-6).
  // An edit was validated when it was decided and is stored validated: the schema must give it back unchanged.
  let approvedValue = revalidateApprovedInput(plan, edit === undefined ? record : { ...record, input: edit.input, inputHash: edit.inputHash, submittedInput: undefined });
  if (isPromiseLike(approvedValue)) approvedValue = await approvedValue;
  if (approvedValue instanceof CapabilityError) return finishFailed(exec, approvedValue);

  // R9: the requester executes; a matched guard supplies fresh display name and attributes.
  // Pinned like stage 2 pins a fresh call's actor (SI-3): the guard's attributes cannot change while a policy awaits.
  // The acting agent is the record's, always: it cannot change between request and resume (SI-3).
  const actor =
    options.expectedActor !== undefined
      ? captureActor({ ...options.expectedActor, id: record.actor.id, kind: record.actor.kind, via: record.actor.via })
      : record.actor;
  if (!isWellFormedActor(actor)) return finishFailed(exec, new CapabilityError({ code: "UNAUTHENTICATED" }));

  // R10: current invocation policies, with the record in view. An old approval never covers an escalated requirement.
  const invocationPolicies = plan.policies.invocation[record.surface];
  // R10, stage 9 and the handler all see this one frozen value, never a re-parse of it (SI-6).
  const input = approvedValue;
  let demands: readonly ApprovalDemand[] = [];
  // The static gate's type may have changed since the request: an approval of the old type does not cover it.
  const gateType = plan.approvalRequired ? plan.meta.approval?.type : undefined;
  if (gateType !== undefined && !record.types.includes(gateType)) return finishDenied(exec, differentApprovalNeeded(), "policy-denied");
  // Nor does an approval by fewer people than the capability now demands.
  if ((plan.meta.approval?.quorum ?? 1) > quorum) return finishDenied(exec, differentApprovalNeeded(), "policy-denied");
  const invocationShadows = plan.shadowPolicies.invocation[record.surface];
  if (invocationPolicies.length > 0 || invocationShadows.length > 0) {
    let batch = runPolicyBatch(exec, "invocation", invocationPolicies, { actor, context: options.context, input, approval: record }, invocationShadows);
    if (isPromiseLike(batch)) batch = await batch;
    const refusal = policyRefusal(batch);
    if (refusal) return finishDenied(exec, refusal.error, refusal.reason);
    demands = batch.approvals;
    const uncovered = batch.approvals.find(
      (d) => (d.approvalType !== undefined && !record.types.includes(d.approvalType)) || (d.quorum ?? 1) > quorum,
    );
    if (uncovered) {
      return finishDenied(exec, differentApprovalNeeded(uncovered.policy), "policy-denied");
    }
  }

  // R11: consume atomically; one approval, one execution.
  try {
    await rt.coordinator.markConsumed(record.id, exec.executionId);
  } catch (cause) {
    return finishFailed(exec, new CapabilityError({ code: "APPROVAL_CONSUMED", cause }));
  }

  // R12: stages 9..15 with the approved value.
  const result = runExecutionTail(exec, {
    actor,
    context: options.context,
    validatedInput: input,
    callInput: input,
    submittedInput: edit === undefined ? record.submittedInput : undefined,
    approval: { id: record.id, approver: record.decision!.approver },
    approvalTypes: record.types,
    approvalQuorum: quorum,
    priorDemands: demands,
    approvalRecord: record,
    signal: options.signal,
    idempotencyKey: options.idempotencyKey,
    invocationId: options.invocationId,
    onProgress: options.onProgress,
    onEvent: options.onEvent,
    allowLateApproval: false,
  });
  if (edit === undefined) return result;
  // The model sent the request as asked: it is told where what ran differs, never the values (SI-9).
  const completed = await result;
  return completed.status === "completed" ? { ...completed, approvedWithChanges: { changed: changedPointers(record.input, edit.input) } } : completed;
}

function governanceWidened(changes: readonly string[]): CapabilityError {
  return new CapabilityError({
    code: "POLICY_DENIED",
    publicMessage: "This operation's governance changed since the approval was requested; request the operation again.",
    // What widened stays internal: the audit and the operator see it, the model does not (SI-9).
    cause: new Error(`Approval voided: the capability's governance widened since it was requested (${changes.join("; ")}).`),
  });
}

function differentApprovalNeeded(policy?: string): CapabilityError {
  return new CapabilityError({
    code: "POLICY_DENIED",
    publicMessage: "This operation now needs a different approval; request the operation again.",
    ...(policy === undefined ? {} : { details: { policy } }),
  });
}

function statusRefusal(record: ApprovalRecord, now: Date): CapabilityError | undefined {
  switch (record.status) {
    case "pending":
      return new CapabilityError({ code: "APPROVAL_PENDING" });
    case "rejected":
      return new CapabilityError({ code: "APPROVAL_REJECTED" });
    case "consumed":
      return new CapabilityError({ code: "APPROVAL_CONSUMED" });
    case "expired":
      return new CapabilityError({ code: "APPROVAL_EXPIRED" });
  }
  if (isExpired(record.expiresAt, now)) return new CapabilityError({ code: "APPROVAL_EXPIRED" });
  // A custom coordinator's record without an accountable approver is not an approval (SI-4).
  if (
    record.status !== "approved" ||
    !record.decision ||
    !isAcceptableApprover(record.decision.approver) ||
    (record.approvals !== undefined && !(Array.isArray(record.approvals) && record.approvals.every((vote) => isAcceptableApprover(vote?.approver))))
  ) {
    return new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval" });
  }
  return undefined;
}

/** Every approver the record names: the quorum votes, and the final decision's approver. */
function approverIdsOf(record: ApprovalRecord): string[] {
  const ids = Array.isArray(record.approvals) ? record.approvals.map((vote) => vote?.approver?.id).filter((id): id is string => typeof id === "string") : [];
  const decided = record.decision?.approver?.id;
  if (typeof decided === "string" && !ids.includes(decided)) ids.push(decided);
  return ids;
}
