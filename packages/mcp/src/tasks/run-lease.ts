// The lease a running task's instance holds on its record (issue 48). Without it, a task whose instance died
// (kill -9) would read `working` until its expiry: nothing re-runs it, and nothing would end it either.
import type { TaskRuntime } from "./task-runtime.js";
import type { MCPTaskRecord } from "./task-store.js";

/** The lease an instance takes when it starts running a task: `now` plus `tasks.runLeaseMs`. */
export const leaseUntil = (tasks: Pick<TaskRuntime, "runLeaseMs">, now: number): number => now + tasks.runLeaseMs;

/**
 * Renews the lease of `claimed` every third of the lease while it runs here, aborting `controller` once the record
 * says a cancel was asked; returns the stop function. A renewal
 * that loses a compare-and-set to a progress write re-reads and tries again; a failing store is skipped until the
 * next tick (the lease is long enough to miss one).
 */
export function renewRunLease(tasks: TaskRuntime, claimed: MCPTaskRecord, controller?: AbortController): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void renewOnce(tasks, claimed, controller)
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, Math.max(1, Math.floor(tasks.runLeaseMs / 3)));
  // A renewal never keeps the process alive on its own.
  timer.unref?.();
  return () => clearInterval(timer);
}

async function renewOnce(tasks: TaskRuntime, claimed: MCPTaskRecord, controller: AbortController | undefined): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await tasks.store.get(claimed.principal, claimed.taskId, Date.now());
    if (current?.phase !== "running") return;
    // A cancel recorded by another instance whose NOTIFY this one never heard (sent before its LISTEN was in
    // effect, or while it was down) is honoured here at the latest, even by work that reports no progress.
    if (current.cancelRequested === true) controller?.abort();
    const next = { ...current, runLeaseExpiresAt: leaseUntil(tasks, Date.now()) };
    if (await tasks.store.update(current.principal, current.taskId, current.version, next)) return;
  }
}

/**
 * Any task read: a `running` task whose lease has lapsed, and that this process does not run, lost its instance.
 * It ends `failed`, outcome unknown, by compare-and-set, so of two readers exactly one writes it and both answer
 * the same. The work is never run again: whether its effect happened is unknown, as a journaled call's
 * `lease-lapsed` is.
 */
export async function endIfLapsed(tasks: TaskRuntime, record: MCPTaskRecord, runsHere: boolean): Promise<MCPTaskRecord> {
  const now = Date.now();
  if (record.phase !== "running" || record.runLeaseExpiresAt === undefined || record.runLeaseExpiresAt > now || runsHere) return record;
  const { runLeaseExpiresAt: _lapsed, cancelRequested: _moot, inputRequests: _none, result: _noResult, ...rest } = record;
  const ended: MCPTaskRecord = { ...rest, phase: "done", ...lapsedOutcome(tasks.readOnly.has(record.capabilityId)), lastUpdatedAt: now };
  if (await tasks.store.update(record.principal, record.taskId, record.version, ended)) return { ...ended, version: record.version + 1 };
  // Another reader ended it first, or the running instance renewed it in time: what the store holds now.
  return (await tasks.store.get(record.principal, record.taskId, now)) ?? record;
}

/**
 * The failed task's status message and JSON-RPC error. Worded as the journal's `lease-lapsed`; `effectStatus:
 * "unknown"` only where the capability may have changed something (not `sideEffect: "none"` or `"read"`).
 */
function lapsedOutcome(readOnly: boolean): Pick<MCPTaskRecord, "status" | "statusMessage" | "error"> {
  const message = readOnly
    ? "The instance running this task stopped reporting (lease-lapsed): its outcome is unknown. The capability is read-only; call it again for a result."
    : "The instance running this task stopped reporting (lease-lapsed): its effect is unknown. Check whether it took effect before repeating the call.";
  const data: Record<string, unknown> = { status: "outcome-unknown", reason: "lease-lapsed" };
  if (!readOnly) data.effectStatus = "unknown";
  // -32603: the JSON-RPC internal error, as a failed task's error is one (SEP-2663).
  return { status: "failed", statusMessage: message, error: { code: -32603, message, data } };
}
