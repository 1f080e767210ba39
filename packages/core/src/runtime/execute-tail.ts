import type { ApprovalRecord } from "../approvals/types.js";
import type { Actor } from "../vocabulary/types.js";
import type { AgentInvocationInfo, ProgressUpdate } from "../capability/types.js";
import { CapabilityError } from "../errors/capability-error.js";
import { newIdempotencyKey } from "../internal/ids.js";
import { isPromiseLike } from "../internal/promise.js";
import type { Execution } from "./execution.js";
import { finishCompleted, finishDenied, finishFailed, finishInternalFailure, finishSuspended, finishWithError } from "./finish.js";
import type { ApprovalDemand } from "../policy/evaluate-batch.js";
import { runApprovalGate } from "./stages/approval-gate.js";
import { runControls } from "./stages/controls.js";
import { executeWithRetry } from "./stages/execute-with-retry.js";
import type { AttemptFinish, AttemptOutcome } from "./stages/attempt.js";
import { ProgressChannel } from "./stages/progress.js";
import type { EventSink } from "./stages/stream.js";
import { policyRefusal, runPolicyBatch } from "./stages/policies.js";
import { redactOutput } from "./stages/redact-output.js";
import type { ExecutionResult } from "./types.js";

export type ExecutionTail = {
  actor: Actor;
  context: unknown;
  /** What policies see (frozen when any applies). */
  validatedInput: unknown;
  /** What the handler receives: the validated value itself, never parsed again (amended docs/architecture/spec/core.md#core-6-1, SI-6). */
  callInput: unknown;
  /** What the caller submitted, stored beside a new request so its resume validates it once (R8). */
  submittedInput: unknown;
  approval: { id: string; approver: Actor } | undefined;
  /** The types the approval in hand was granted for (its request's, or the record's on resume). */
  approvalTypes: readonly string[];
  /** The quorum that approval met; absent means one approver. */
  approvalQuorum?: number;
  /** The demands behind that approval, repeated in any new request so the approver sees every reason. */
  priorDemands: readonly ApprovalDemand[];
  /** On resume, the record every policy of the execution sees as `req.approval` (docs/architecture/spec/core.md#core-3 PolicyRequest). */
  approvalRecord?: ApprovalRecord;
  signal: AbortSignal | undefined;
  idempotencyKey: string | undefined;
  /** Optional so callers that predate it stay valid; only the invocation service sets it. */
  invocationId?: string;
  /** The caller's progress receiver; absent, `reportProgress` is a shared no-op. */
  onProgress?: (update: ProgressUpdate) => void;
  /** The caller's receiver of a streaming capability's events. */
  onEvent?: EventSink;
  /** Fresh invocations without an approval may still engage stage 8 from an execution policy. */
  allowLateApproval: boolean;
  /**
   * Invoke's last guard: a broken invariant later in the tail ends in an INTERNAL_ERROR envelope instead of a
   * rejection. Resume leaves it off, so it rejects as it always has.
   */
  guarded?: true;
};

/**
 * Stages 9..15, shared by invoke and resume (R12). Without execution policies nothing before stage 11 needs to wait,
 * so no async frame is held across the procedure call: what a call in flight keeps is the attempt and one reaction
 * (issue 28).
 */
export function runExecutionTail(exec: Execution, tail: ExecutionTail): Promise<ExecutionResult<unknown>> {
  const plan = exec.plan!;
  if (plan.policies.execution[exec.surface].length > 0 || plan.shadowPolicies.execution[exec.surface].length > 0) {
    return guard(exec, tail, withExecutionPolicies(exec, tail));
  }
  return controlsThenProcedure(exec, tail, tail.approval);
}

function guard(exec: Execution, tail: ExecutionTail, later: Promise<ExecutionResult<unknown>>): Promise<ExecutionResult<unknown>> {
  return tail.guarded ? later.catch((cause) => finishInternalFailure(exec, cause)) : later;
}

async function withExecutionPolicies(exec: Execution, tail: ExecutionTail): Promise<ExecutionResult<unknown>> {
  const plan = exec.plan!;
  let approval = tail.approval;

  // Stage 9: execution policies (opted in by phase).
  const executionPolicies = plan.policies.execution[exec.surface];
  const executionShadows = plan.shadowPolicies.execution[exec.surface];
  let batch = runPolicyBatch(
    exec,
    "execution",
    executionPolicies,
    { actor: tail.actor, context: tail.context, input: tail.validatedInput, approval: tail.approvalRecord },
    executionShadows,
  );
  if (isPromiseLike(batch)) batch = await batch;
  const refusal = policyRefusal(batch);
  if (refusal) return finishDenied(exec, refusal.error, refusal.reason);
  if (batch.verdict === "require-approval") {
    // No approval yet engages stage 8 now. One in hand satisfies only the demands whose type it was granted for
    // (the R10 rule, amended docs/architecture/spec/core.md#core-stage-9); otherwise a new request lists every demand, old and new (SI-5).
    const held = tail.approvalTypes;
    const heldQuorum = tail.approvalQuorum ?? 1;
    const needsGate =
      approval === undefined
        ? tail.allowLateApproval
        : batch.approvals.some((d) => (d.approvalType !== undefined && !held.includes(d.approvalType)) || (d.quorum ?? 1) > heldQuorum);
    if (needsGate) {
      const demands = approval === undefined ? batch.approvals : [...tail.priorDemands, ...batch.approvals];
      const gate = await runApprovalGate(exec, { actor: tail.actor, input: tail.validatedInput, submittedInput: tail.submittedInput, demands });
      if (gate.kind === "error") return finishFailed(exec, gate.error);
      if (gate.kind === "suspended") return finishSuspended(exec, gate.record);
      approval = gate.approval;
    }
  }
  return controlsThenProcedure(exec, tail, approval);
}

/** Stage 10, then stage 11 (awaited only under `audit.strict`). */
function controlsThenProcedure(exec: Execution, tail: ExecutionTail, approval: ExecutionTail["approval"]): Promise<ExecutionResult<unknown>> {
  const refused = runControls(exec, tail.signal);
  if (isPromiseLike(refused)) return guard(exec, tail, refused.then((error) => (error ? finishWithError(exec, error) : runProcedure(exec, tail, approval))));
  if (refused) return Promise.resolve(finishWithError(exec, refused));
  return runProcedure(exec, tail, approval);
}

/** Stages 11..15: the procedure, with retries only where SI-11 allows, then its outcome. */
function runProcedure(exec: Execution, tail: ExecutionTail, approval: ExecutionTail["approval"]): Promise<ExecutionResult<unknown>> {
  const plan = exec.plan!;
  const agent = invocationInfo(exec.executionId, plan.id, exec, tail);
  if (approval !== undefined) agent.approval = approval;
  if (exec.correlationId !== undefined) agent.correlationId = exec.correlationId;
  if (tail.invocationId !== undefined) agent.invocationId = tail.invocationId;
  let finish: AttemptFinish<ExecutionResult<unknown>> = tail.guarded ? finishOutcomeGuarded : finishOutcome;
  let progress: ProgressChannel | undefined;
  if (tail.onProgress !== undefined) {
    // Only a caller that asked pays for progress: its own channel, closed (the last update delivered) as the
    // outcome is decided, so nothing reaches it after the result.
    const channel = (progress = new ProgressChannel(tail.onProgress, exec.rt.defaults.progressIntervalMs));
    agent.reportProgress = channel.report;
    const decide = finish;
    finish = (e, outcome) => {
      channel.close();
      return decide(e, outcome);
    };
  }
  const settled = executeWithRetry(exec, tail.callInput, tail.context, agent, tail.signal, finish, plan.streaming ? tail.onEvent : undefined, progress);
  if (progress !== undefined) settled.then(undefined, progress.close.bind(progress));
  // A single attempt resolves with what the guarded finish returns; only the retry loop can still reject.
  return plan.maxAttempts <= 0 ? settled : guard(exec, tail, settled);
}

/**
 * `ctx.agent`. A caller's idempotency key is a plain property; the runtime's own is minted on first read and kept
 * (the object is shared by every attempt, so retries see one key): most procedures never read it, and minting a
 * random id is about a twentieth of a plain invoke (issue 28). Enumerable, so spreads and JSON carry it. The getter
 * is one shared function added with defineProperty: a getter written in the literal makes a fresh function per call
 * and puts the object in dictionary mode (about 450 bytes more per call in flight).
 */
function invocationInfo(executionId: string, capabilityId: string, exec: Execution, tail: ExecutionTail): AgentInvocationInfo {
  const info = { executionId, capabilityId, surface: exec.surface, actor: tail.actor, reportProgress: IGNORE_PROGRESS } as AgentInvocationInfo;
  if (tail.idempotencyKey !== undefined) info.idempotencyKey = tail.idempotencyKey;
  else Object.defineProperty(info, "idempotencyKey", MINTED_KEY);
  return info;
}

/** `reportProgress` when the caller did not ask for progress: one shared function, nothing per call. */
const IGNORE_PROGRESS: AgentInvocationInfo["reportProgress"] = () => {};

const mintedKeys = new WeakMap<object, string>();
const MINTED_KEY: PropertyDescriptor = {
  get(this: object): string {
    let key = mintedKeys.get(this);
    if (key === undefined) mintedKeys.set(this, (key = newIdempotencyKey()));
    return key;
  },
  enumerable: true,
  configurable: true,
};

function finishOutcomeGuarded(exec: Execution, outcome: AttemptOutcome): ExecutionResult<unknown> {
  try {
    return finishOutcome(exec, outcome);
  } catch (cause) {
    return finishInternalFailure(exec, cause);
  }
}

/** Stages 12..15 for the last attempt's outcome. */
function finishOutcome(exec: Execution, outcome: AttemptOutcome): ExecutionResult<unknown> {
  if (!outcome.ok) {
    // Stage 12 is delegated to oRPC's in-call output validation: the procedure ran, its output is withheld.
    if (outcome.events !== undefined) return finishStreamFailure(exec, outcome);
    return outcome.error.code === "OUTPUT_INVALID"
      ? finishFailed(exec, outcome.error, { executedBeforeFailure: true })
      : finishWithError(exec, outcome.error);
  }

  // A stream's events were redacted one by one as they left (stages/stream.ts); its output is the last of them.
  if (outcome.events !== undefined) return finishCompleted(exec, outcome.output, outcome.events);

  // Stage 13: redaction; the unredacted value never leaves.
  const redacted = redactOutput(exec.plan!, outcome.output);
  if (redacted instanceof CapabilityError) return finishFailed(exec, redacted, { executedBeforeFailure: true });

  // Stages 14 and 15.
  return finishCompleted(exec, redacted.output);
}

/** A stream's failure carries its event count; after its first event, its effect is unknown (attempts > 0). */
function finishStreamFailure(exec: Execution, outcome: Extract<AttemptOutcome, { ok: false }>): ExecutionResult<unknown> {
  const events = outcome.events;
  return outcome.error.code === "OUTPUT_INVALID" || outcome.executedBeforeFailure
    ? finishFailed(exec, outcome.error, { executedBeforeFailure: true, events })
    : finishWithError(exec, outcome.error, { events });
}
