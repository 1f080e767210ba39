import { DBOS } from "@dbos-inc/dbos-sdk";
import type { InvocationRecord, InvocationService } from "@orpc-agent/core/server";
import { workflowIdOf } from "./invocation-id.js";
import type { StepsState } from "./state.js";
import { approvalTopic, invocationTopic } from "./topics.js";
import type { WakeTarget } from "./types.js";

/**
 * `steps.wake` (docs/architecture/spec/distributed.md#distributed-9-2): `DBOS.send` to the waiting workflow, found through the journal row and
 * the `dbos:<workflowId>:<key>` scheme. The idempotency key names the state being announced (the approval's
 * status, or the row's fence and state), so a repeated wake is delivered once while a premature one cannot
 * swallow the wake that follows the real change. The message carries no authority: the workflow re-reads the
 * coordinator or the journal before acting. Nothing to wake (no row, or a row no step waits on) is not an
 * error; polling covers a wake that never comes.
 */
export async function wakeWorkflow<TContext>(s: StepsState<TContext>, target: WakeTarget): Promise<void> {
  const service = s.service;
  if (DBOS.isWithinWorkflow()) {
    throw new TypeError("steps.wake is called outside workflows, after runtime.approvals.decide or service.resolve.");
  }
  if (isApprovalTarget(target)) {
    const record = await findSuspended(service, target.approvalId);
    if (record !== undefined) await sendDecision(s, record, target.approvalId);
    return;
  }
  const { invocationId } = target as { invocationId?: unknown };
  if (typeof invocationId !== "string" || workflowIdOf(invocationId) === undefined) {
    throw new TypeError('steps.wake needs { approvalId } or { invocationId } with an id of the form "dbos:<workflowId>:<key>".');
  }
  const record = await service.get(invocationId);
  if (record === null) return;
  if (record.state === "pending" && record.approvalId !== undefined) {
    await sendDecision(s, record, record.approvalId);
  } else {
    // One message per journal transition: a later resolution of the same row (after a re-run) still wakes.
    await send(record, invocationTopic(invocationId), `${invocationId}:${record.fence}:${record.state}`);
  }
}

async function sendDecision<TContext>(s: StepsState<TContext>, record: InvocationRecord, approvalId: string): Promise<void> {
  const approval = await (await s.runtime()).approvals.get(approvalId);
  // "consumed" announces the same decision as "approved": the woken step consumes it, and a concurrent wake that
  // reads the status a moment later must not send the decision a second time.
  const status = approval?.status === "consumed" ? "approved" : (approval?.status ?? "absent");
  await send(record, approvalTopic(approvalId), `${approvalId}:${status}`);
}

async function send(record: InvocationRecord, topic: string, dedupe: string): Promise<void> {
  const workflowId = workflowIdOf(record.invocationId);
  if (workflowId === undefined || record.surface !== "workflow") return; // not a DBOS step's invocation
  await DBOS.send(workflowId, { topic }, topic, `orpc-agent:wake:${dedupe}`);
}

function isApprovalTarget(target: WakeTarget): target is { approvalId: string } {
  if (typeof target !== "object" || target === null) throw new TypeError("steps.wake needs { approvalId } or { invocationId }.");
  const { approvalId } = target as { approvalId?: unknown };
  if (approvalId === undefined) return false;
  if (typeof approvalId !== "string" || approvalId.length === 0) throw new TypeError("steps.wake: approvalId must be a non-empty string.");
  return true;
}

/**
 * The suspended row of `approvalId`. The service offers no lookup by approval (docs/architecture/spec/distributed.md#distributed-3-1), so the
 * namespace's pending rows are scanned (the journal needs `list`); `wake({ invocationId })` reads one row directly.
 */
async function findSuspended(service: InvocationService, approvalId: string): Promise<InvocationRecord | undefined> {
  const pending = await service.list({ state: "pending" });
  return pending.find((record) => record.approvalId === approvalId);
}
