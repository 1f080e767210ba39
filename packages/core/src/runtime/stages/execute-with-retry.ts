import type { AgentInvocationInfo } from "../../capability/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { sleep } from "../../internal/promise.js";
import { emit, type Execution } from "../execution.js";
import type { CapabilityPlan } from "../plan.js";
import { buildCallContext } from "./call-context.js";
import { runAttempt, type AttemptFinish, type AttemptOutcome } from "./attempt.js";
import type { ProgressChannel } from "./progress.js";
import { runStreamAttempt, type EventSink } from "./stream.js";

/**
 * Stage 11: the oRPC call with its full middleware chain, one unref'd timer per attempt (and a controller when its
 * signal is read), wrapped in the SI-11 retry loop. The caller signal spans the execution and is terminal.
 * `finish` maps the last attempt's outcome to the result. A streaming capability's attempt consumes its stream
 * (stream.ts), handing each event to `onEvent`, and is retried only before its first event.
 * docs/architecture/spec/core.md#core-6-1
 */
export function executeWithRetry<T>(
  exec: Execution,
  input: unknown,
  context: unknown,
  agent: AgentInvocationInfo,
  signal: AbortSignal | undefined,
  finish: AttemptFinish<T>,
  onEvent?: EventSink,
  progress?: ProgressChannel,
): Promise<T> {
  const plan = exec.plan!;
  // A plan that can never retry runs its one attempt with no loop frame held while it is in flight (issue 28).
  if (plan.maxAttempts <= 0) return oneAttempt(exec, plan, input, buildCallContext(context, agent), signal, finish, onEvent);
  const contextFor = progress === undefined ? constantContext(buildCallContext(context, agent)) : attemptAgents(agent, progress, context);
  return retrying(exec, plan, input, contextFor, signal, onEvent, progress).then((outcome) => finish(exec, outcome));
}

function constantContext(callContext: Record<string, unknown>): () => Record<string, unknown> {
  return () => callContext;
}

/**
 * With progress asked and retries possible, each attempt gets its own `ctx.agent` whose `reportProgress` goes quiet
 * when that attempt ends: a handler that outlives its attempt cannot report into the retry (SI-12). The copy reads
 * the idempotency key once, so every attempt still sees one key.
 */
function attemptAgents(agent: AgentInvocationInfo, progress: ProgressChannel, context: unknown): () => Record<string, unknown> {
  return () => buildCallContext(context, { ...agent, reportProgress: progress.attemptReport() });
}

function oneAttempt<T>(
  exec: Execution,
  plan: CapabilityPlan,
  input: unknown,
  callContext: Record<string, unknown>,
  signal: AbortSignal | undefined,
  finish: AttemptFinish<T>,
  onEvent: EventSink | undefined,
): Promise<T> {
  const span = attemptSpan(exec, plan);
  return plan.streaming
    ? runStreamAttempt(exec, input, callContext, signal, span, finish, onEvent)
    : runAttempt(exec, input, callContext, signal, span, finish);
}

const asOutcome: AttemptFinish<AttemptOutcome> = (_exec, outcome) => outcome;

function attemptSpan(exec: Execution, plan: CapabilityPlan) {
  exec.attempts++;
  return exec.rt.tracing?.startSpan(
    "agent.procedure_execution",
    { "orpc_agent.capability_id": plan.id, "orpc_agent.execution_id": exec.executionId, "orpc_agent.attempt": exec.attempts },
    exec.span,
  );
}

async function retrying(
  exec: Execution,
  plan: CapabilityPlan,
  input: unknown,
  contextFor: () => Record<string, unknown>,
  signal: AbortSignal | undefined,
  onEvent: EventSink | undefined,
  progress: ProgressChannel | undefined,
): Promise<AttemptOutcome> {
  for (;;) {
    const outcome = await oneAttempt(exec, plan, input, contextFor(), signal, asOutcome, onEvent);
    if (outcome.ok) return outcome;
    // The attempt is over: whatever its handler still reports goes nowhere (the channel closes on the last one).
    progress?.endAttempt();
    const error = outcome.error;
    // A stream that delivered an event is never run again: the caller has seen part of it.
    if ((outcome.events ?? 0) > 0 || !shouldRetry(plan, exec.attempts, error)) return outcome;
    emit(exec, "capability.retried", () => ({ attempt: exec.attempts + 1, previousErrorCode: error.code }));
    try {
      await sleep(plan.backoffMs * 2 ** (exec.attempts - 1), signal);
    } catch {
      // A stream's terminal event counts its events however it ends: here, none was delivered.
      const cancelled = new CapabilityError({ code: "CANCELLED" });
      return plan.streaming ? { ok: false, error: cancelled, events: 0 } : { ok: false, error: cancelled };
    }
  }
}

/** SI-11: every condition must hold. `retryOn` is only an extra veto; throwing counts as false. */
function shouldRetry(plan: CapabilityPlan, attempts: number, error: CapabilityError): boolean {
  if (plan.maxAttempts <= 0 || attempts > plan.maxAttempts) return false;
  if (!error.retryable || error.code === "OUTPUT_INVALID" || error.code === "CANCELLED") return false;
  if (!plan.retrySafe) return false;
  if (plan.retryOn) {
    try {
      if (plan.retryOn(error) === false) return false;
    } catch {
      return false;
    }
  }
  return true;
}
