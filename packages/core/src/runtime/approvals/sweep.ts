import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AgentAuditEvent } from "../../audit/types.js";
import type { AuditEmitter } from "../../audit/emitter.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { dueNotices, type DueNotice } from "../../approvals/notify/due-notices.js";
import type { ApprovalCoordinator, ApprovalListFilter, ApprovalRecord, ApprovalSweepOptions, ApprovalSweepResult } from "../../approvals/types.js";
import type { CapabilityRegistry } from "../../registry/types.js";
import type { RuntimeNotifications } from "./notifications.js";

/**
 * `runtime.approvals.sweep`: escalation and expiry warnings, driven by the app's schedule rather than an in-process
 * timer, so a restart loses nothing. Each due notice is claimed in the coordinator before it is queued: of every
 * instance sweeping one store exactly one sends it, and a delivery that fails is not retried (best effort, at most
 * once). Nothing here decides or changes a status. docs/guides/notifying-approvers.md#escalation-and-expiry-warnings
 */
export function createApprovalSweep(deps: {
  coordinator: ApprovalCoordinator;
  /** The runtime's listing: with `approvals.seal`, a record whose seal fails is not shown, so nobody is told of it. */
  list: ((filter?: ApprovalListFilter) => Promise<ApprovalRecord[]>) | undefined;
  registry: Pick<CapabilityRegistry, "get">;
  notifications: RuntimeNotifications | undefined;
  audit: AuditEmitter;
  now: () => Date;
}): (options?: ApprovalSweepOptions) => Promise<ApprovalSweepResult> {
  const { coordinator, list, registry, notifications, audit } = deps;
  return async function sweep(options?: ApprovalSweepOptions): Promise<ApprovalSweepResult> {
    try {
      return await sweepOnce(options);
    } catch (error) {
      // As `decide`: every refusal is typed; anything else the store threw (a table without `notices`) is its failure.
      throw CapabilityError.isInstance(error) ? error : new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause: error });
    }
  };

  async function sweepOnce(options: ApprovalSweepOptions | undefined): Promise<ApprovalSweepResult> {
    if (list === undefined || typeof coordinator.claimNotice !== "function") {
      throw new CapabilityError({
        code: "APPROVAL_SWEEP_UNSUPPORTED",
        cause: new Error("runtime.approvals.sweep() needs a coordinator with list() and claimNotice() (docs/guides/notifying-approvers.md)"),
      });
    }
    const at = readSweepInstant(options, deps.now);
    const sent: ApprovalSweepResult = { escalated: 0, expiring: 0 };
    // Nobody to tell: claim nothing, so what falls due is still sent once a notifier is configured.
    if (notifications === undefined) return sent;
    const claim = coordinator.claimNotice.bind(coordinator);
    for (const record of await list({ status: "pending" })) {
      const escalate = registry.get(record.capabilityId)?.meta.approval?.escalate;
      for (const notice of dueNotices(record, escalate, notifications.expiryWarningMs, at)) {
        // A lost claim is another instance's notice (or the record was decided meanwhile): not ours to send.
        if (!(await claim(record.id, notice.key, at))) continue;
        send(record, notice, at, sent);
      }
    }
    return sent;
  }

  function send(record: ApprovalRecord, notice: DueNotice, at: Date, sent: ApprovalSweepResult): void {
    if (notice.kind === "expiring") {
      notifications!.expiring(record, at);
      sent.expiring += 1;
      return;
    }
    if (audit.enabled) audit.emit(escalatedEvent(record, notice, at));
    notifications!.escalated(record, at, { index: notice.step, afterMs: notice.afterMs, to: notice.to });
    sent.escalated += 1;
  }
}

function readSweepInstant(options: ApprovalSweepOptions | undefined, now: () => Date): Date {
  const given = options?.now;
  if (given === undefined) return now();
  if (!(given instanceof Date) || !Number.isFinite(given.getTime())) {
    throw new CapabilityError({
      code: "INPUT_INVALID",
      stage: "approval",
      details: { issues: [{ path: ["now"], message: "must be a valid Date" }] },
      cause: new Error("runtime.approvals.sweep({ now }) needs a valid Date"),
    });
  }
  return given;
}

/** The actor is the requester whose call waited; evidence of who was told, never of the input. */
function escalatedEvent(record: ApprovalRecord, notice: Extract<DueNotice, { kind: "escalated" }>, timestamp: Date): AgentAuditEvent {
  return Object.freeze({
    type: "approval.escalated",
    timestamp,
    surface: record.surface,
    actor: toAuditActorRef(record.actor),
    capabilityId: record.capabilityId,
    data: Object.freeze({ approvalId: record.id, step: notice.step, afterMs: notice.afterMs, to: [...notice.to] }),
  }) as AgentAuditEvent;
}
