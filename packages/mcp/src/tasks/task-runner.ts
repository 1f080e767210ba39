import type { ExecutionResult, ProgressUpdate } from "@orpc-agent/core";
import { toCallToolResult } from "../catalog/call-tool-result.js";
import { CONCEALED_ENVELOPE, toEnvelope, type ApprovalGuidance, type MCPEnvelope } from "../catalog/envelope.js";
import type { MCPIdentity } from "../catalog/governance-options.js";
import { conversationOf } from "../catalog/identity-checks.js";
import type { PreparedMCPServer } from "../catalog/prepare.js";
import { leaseUntil, renewRunLease } from "./run-lease.js";
import type { MCPTaskRecord } from "./task-store.js";
import { runningKey, type TaskRuntime } from "./task-runtime.js";

const AWAITING_DECISION = "Awaiting the approver's decision.";

/** The statuses a caller may still move: a poll may resume it, a cancel may end it. */
const isAwaiting = (record: MCPTaskRecord) => record.phase === "awaiting" || record.phase === "answered";

/**
 * A `tasks/get`: the task as it stands, after resuming it when its approval has been decided. Lazy on poll, so it
 * needs no listener and works from any instance that sees the store. Of two pollers (or a poller and a cancel) only
 * the one whose compare-and-set wins resumes, so the approval is resumed at most once by tasks.
 */
export async function pollTask<TContext>(
  prepared: PreparedMCPServer<TContext>,
  tasks: TaskRuntime,
  identity: MCPIdentity<TContext>,
  record: MCPTaskRecord,
): Promise<MCPTaskRecord> {
  if (!isAwaiting(record) || record.approvalId === undefined || !(await approvalDecided(prepared, record.approvalId))) return record;
  const now = Date.now();
  const claimed: MCPTaskRecord = withoutInput({ ...record, phase: "running", status: "working", statusMessage: "Approval decided: running.", lastUpdatedAt: now, runLeaseExpiresAt: leaseUntil(tasks, now) });
  if (!(await tasks.store.update(record.principal, record.taskId, record.version, claimed))) {
    return (await tasks.store.get(record.principal, record.taskId, now)) ?? record;
  }
  const controller = new AbortController();
  tasks.running.set(runningKey(record), controller);
  const approvalId = record.approvalId;
  runInBackground(tasks, prepared.guidance, { ...claimed, version: record.version + 1 }, controller, (onProgress) =>
    prepared.runtime.resume(approvalId, { context: identity.context, expectedActor: identity.actor, expectedSurface: "mcp", signal: controller.signal, onProgress }),
  );
  return { ...claimed, version: record.version + 1 };
}

/**
 * A `task: "always"` call, already stored as `running`: invoked in the background as its caller. A call that then
 * stops for approval becomes `awaiting` like any other (`onApproval` builds that record's fields).
 */
export function invokeInBackground<TContext>(
  prepared: PreparedMCPServer<TContext>,
  tasks: TaskRuntime,
  identity: MCPIdentity<TContext>,
  record: MCPTaskRecord,
  input: Record<string, unknown>,
  onApproval: (result: Extract<ExecutionResult, { status: "approval-required" }>) => Partial<MCPTaskRecord>,
): void {
  const controller = new AbortController();
  runInBackground(tasks, prepared.guidance, record, controller, (onProgress) =>
    prepared.runtime.invoke(record.capabilityId, input, { actor: identity.actor, context: identity.context, ...conversationOf(identity), surface: "mcp", signal: controller.signal, onProgress }),
    onApproval,
  );
}

function runInBackground(
  tasks: TaskRuntime,
  guidance: ApprovalGuidance,
  claimed: MCPTaskRecord,
  controller: AbortController,
  run: (onProgress: (update: ProgressUpdate) => void) => Promise<ExecutionResult>,
  onApproval?: (result: Extract<ExecutionResult, { status: "approval-required" }>) => Partial<MCPTaskRecord>,
): void {
  tasks.running.set(runningKey(claimed), controller);
  const unwatch = watchCancellation(tasks, claimed, controller);
  const stopRenewing = renewRunLease(tasks, claimed, controller);
  tasks.track(
    (async () => {
      let progress = Promise.resolve();
      const onProgress = (update: ProgressUpdate) => {
        // Progress reaches the client as the working task's status message (SEP-2663 sends no progress on tasks).
        progress = progress.then(() => writeRunning(tasks, claimed, progressMessage(update))).catch(() => undefined);
      };
      let result: ExecutionResult | undefined;
      try {
        result = await run(onProgress);
      } catch {
        result = undefined;
      }
      await progress;
      if (result?.status === "approval-required" && onApproval !== undefined) return writeFinal(tasks, claimed, { phase: "awaiting", ...onApproval(result) });
      let envelope: MCPEnvelope;
      try {
        envelope = result === undefined ? CONCEALED_ENVELOPE : toEnvelope(result, guidance);
      } catch {
        envelope = CONCEALED_ENVELOPE;
      }
      await writeFinal(tasks, claimed, finalOf(result, envelope));
    })().finally(() => {
      stopRenewing();
      unwatch();
      tasks.running.delete(runningKey(claimed));
    }),
  );
}

/**
 * A `tasks/update`: an answer to the URL elicitation moves the task from `input_required` to `working` (the key
 * is never asked again). It decides nothing: only the runtime's decision moves the approval (SI-4).
 */
export async function answerTask(tasks: TaskRuntime, record: MCPTaskRecord, inputResponses: Record<string, unknown>): Promise<void> {
  if (record.phase !== "awaiting" || record.inputRequests === undefined) return;
  const answered = Object.keys(record.inputRequests).some((key) => Object.hasOwn(inputResponses, key));
  if (!answered) return;
  const next = withoutInput({ ...record, phase: "answered", status: "working", statusMessage: AWAITING_DECISION, lastUpdatedAt: Date.now() });
  await tasks.store.update(record.principal, record.taskId, record.version, next);
}

/**
 * A `tasks/cancel`. Before the resume: the task ends `cancelled` and nothing runs (compare-and-set against the
 * poller that would resume it: exactly one wins). While running: the runtime's signal is aborted and the task ends
 * with what the runtime answers, `cancelled` with its effect status, or `completed` when the work won the race.
 */
export async function cancelTask(tasks: TaskRuntime, record: MCPTaskRecord): Promise<void> {
  let current: MCPTaskRecord | undefined = record;
  for (let attempt = 0; attempt < 3 && current !== undefined && isAwaiting(current); attempt++) {
    const next = withoutInput({
      ...current,
      phase: "done",
      status: "cancelled",
      statusMessage: "Cancelled before the approval was resumed: nothing ran.",
      lastUpdatedAt: Date.now(),
    });
    if (await tasks.store.update(current.principal, current.taskId, current.version, next)) return;
    current = await tasks.store.get(record.principal, record.taskId, Date.now());
  }
  if (current?.phase !== "running") return;
  const here = tasks.running.get(runningKey(current));
  if (here !== undefined || tasks.cancellations === undefined) return here?.abort();
  // Another instance runs it: record the request where that instance reads, then tell it to read.
  for (let attempt = 0; attempt < 5 && current?.phase === "running" && current.cancelRequested !== true; attempt++) {
    if (await tasks.store.update(current.principal, current.taskId, current.version, { ...current, cancelRequested: true, lastUpdatedAt: Date.now() })) break;
    current = await tasks.store.get(record.principal, record.taskId, Date.now());
  }
  if (current?.phase === "running") await Promise.resolve(tasks.cancellations.publish(current.taskId)).catch(() => undefined);
}

/**
 * While `claimed` runs here: hearing its id (from any instance, or from anyone able to publish) only re-reads the
 * task, under this task's own principal; the work is aborted only when the store says a cancel was asked (SI-3).
 */
function watchCancellation(tasks: TaskRuntime, claimed: MCPTaskRecord, controller: AbortController): () => void {
  const bus = tasks.cancellations;
  if (bus === undefined) return () => undefined;
  const heard = (taskId: string) => {
    if (taskId !== claimed.taskId || controller.signal.aborted) return;
    void abortIfRequested(tasks, claimed, controller);
  };
  let stop: (() => void) | void;
  try {
    stop = bus.subscribe(heard);
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      stop?.();
    } catch {
      // The application's unsubscribe failing must not keep the task's outcome from being written.
    }
  };
}

async function abortIfRequested(tasks: TaskRuntime, claimed: MCPTaskRecord, controller: AbortController): Promise<void> {
  const current = await tasks.store.get(claimed.principal, claimed.taskId, Date.now()).catch(() => undefined);
  if (current?.phase === "running" && current.cancelRequested === true) controller.abort();
}

async function approvalDecided<TContext>(prepared: PreparedMCPServer<TContext>, approvalId: string): Promise<boolean> {
  try {
    const approval = await prepared.runtime.approvals.get(approvalId);
    if (approval === null || approval === undefined) return true;
    // A pending approval past its expiry is decided too: resuming it answers APPROVAL_EXPIRED, as the envelope does.
    return approval.status !== "pending" || !(new Date(approval.expiresAt).getTime() > Date.now());
  } catch {
    return false;
  }
}

function finalOf(result: ExecutionResult | undefined, envelope: MCPEnvelope): Partial<MCPTaskRecord> {
  if (result?.status === "cancelled") {
    const effect = result.effectStatus === "unknown" ? "its effect is unknown" : "it reported no effect";
    return { status: "cancelled", statusMessage: `Cancelled while running (${result.error.code}): ${effect}.` };
  }
  // A governed refusal is a tool result (isError), so `completed`, never `failed` (SEP-2663: failed is for JSON-RPC errors).
  // The result as `tools/call` would have answered it on 2026-07-28, `resultType` included.
  return { status: "completed", result: { resultType: "complete", ...toCallToolResult(envelope) }, statusMessage: undefined };
}

async function writeRunning(tasks: TaskRuntime, claimed: MCPTaskRecord, statusMessage: string): Promise<void> {
  const current = await tasks.store.get(claimed.principal, claimed.taskId, Date.now());
  if (current?.phase !== "running") return;
  // A cancel recorded by another instance whose message this one missed is still honoured at the next progress.
  if (current.cancelRequested === true) tasks.running.get(runningKey(current))?.abort();
  await tasks.store.update(current.principal, current.taskId, current.version, { ...current, statusMessage, lastUpdatedAt: Date.now() });
}

async function writeFinal(tasks: TaskRuntime, claimed: MCPTaskRecord, final: Partial<MCPTaskRecord>): Promise<void> {
  // Only this resume writes a running task's outcome; a lost race here is a progress write, so read and retry.
  let outcome = final;
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await tasks.store.get(claimed.principal, claimed.taskId, Date.now());
    if (current?.phase !== "running") return;
    const next: MCPTaskRecord = { ...current, phase: "done", ...outcome, lastUpdatedAt: Date.now() };
    if (next.statusMessage === undefined) delete next.statusMessage;
    if (next.result === undefined) delete next.result;
    if (next.inputRequests === undefined) delete next.inputRequests;
    try {
      if (await tasks.store.update(current.principal, current.taskId, current.version, next)) return;
    } catch (error) {
      // A store that refuses this outcome (PostgreSQL's jsonb holds no U+0000) must not leave the task `working` until
      // it expires: it ends `failed`, once, saying the effect is unknown. A store refusing that too is down: give up.
      if (outcome === UNRECORDABLE) throw error;
      outcome = UNRECORDABLE;
    }
  }
}

const UNRECORDABLE: Partial<MCPTaskRecord> = {
  phase: "done",
  status: "failed",
  statusMessage: "The call ended, but its outcome could not be recorded: its effect is unknown.",
  result: undefined,
  inputRequests: undefined,
};

function progressMessage(update: ProgressUpdate): string {
  const position = update.total === undefined ? `${update.progress}` : `${update.progress}/${update.total}`;
  return update.message === undefined ? `Running: ${position}.` : `Running: ${position}: ${update.message}`;
}

function withoutInput(record: MCPTaskRecord): MCPTaskRecord {
  const { inputRequests: _dropped, ...rest } = record;
  return rest;
}
