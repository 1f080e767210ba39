import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AgentAuditEvent, AuditActorRef } from "../../audit/types.js";
import type { AuditEmitter } from "../../audit/emitter.js";
import { createNotificationQueue, DEFAULT_NOTIFY_QUEUE_LIMIT, DEFAULT_NOTIFY_TIMEOUT_MS } from "../../approvals/notify/queue.js";
import type { ApprovalNotification, ApprovalNotificationFailure, ApprovalNotificationType, ApprovalNotifyOptions, MintDecisionLink } from "../../approvals/notify/types.js";
import type { DecisionLink, DecisionLinkRequest } from "../../approvals/links/types.js";
import type { ApprovalDecision, ApprovalRecord } from "../../approvals/types.js";
import { describeApproval } from "../../approvals/view/describe-approval.js";
import type { ApprovalView } from "../../approvals/view/types.js";
import type { CapabilityRegistry } from "../../registry/types.js";

/** What the runtime tells approvers; each call only queues, and never throws. */
export type RuntimeNotifications = {
  /** An invocation stored a pending approval. */
  requested(record: ApprovalRecord): void;
  /** `runtime.approvals.decide` succeeded with `decision`. */
  decided(record: ApprovalRecord, decision: ApprovalDecision): void;
  /** A sweep at `at` claimed the expiry warning of a pending `record`. */
  expiring(record: ApprovalRecord, at: Date): void;
  /** A sweep at `at` claimed escalation step `step` of a pending `record`. */
  escalated(record: ApprovalRecord, at: Date, step: { index: number; afterMs: number; to: readonly string[] }): void;
  /** `approvals.expiryWarningMs`, read and checked at startup. */
  readonly expiryWarningMs: number | false;
};

/**
 * The runtime's side of `approvals.notify`: builds each notification from the record as it stands (the redacted view,
 * deep-frozen, never the stored input), queues it, and records what was not delivered as
 * `approval.notification_failed`. Absent without `notify`, so a runtime without one pays nothing.
 */
export function createRuntimeNotifications(
  config: ApprovalNotifyOptions,
  deps: {
    audit: AuditEmitter;
    now: () => Date;
    registry: CapabilityRegistry;
    selfApproval: { rejectSelfApproval: boolean; requesterConfirmable: ReadonlySet<string> };
    /** `runtime.approvals.decisionLink` when the runtime has `approvals.links`; called only after startup. */
    decisionLink?: ((approvalId: string, request: DecisionLinkRequest) => Promise<DecisionLink>) | undefined;
  },
): RuntimeNotifications | undefined {
  const { notify, timeoutMs, limit, expiryWarningMs } = readNotifyOptions(config);
  if (notify === undefined) return undefined;
  const { audit, now, registry } = deps;
  const selfApproval = { rejectSelfApproval: deps.selfApproval.rejectSelfApproval, requesterConfirmable: [...deps.selfApproval.requesterConfirmable] };

  const queue = createNotificationQueue({
    notify,
    limit,
    timeoutMs,
    track: (work) => audit.track(work),
    onUndelivered: (notification, reason) => {
      if (audit.enabled) audit.emit(failedEvent(notification, reason, now()));
    },
  });

  // A pending approval's notifications mint links through the runtime's own guarded path; until it expires by default.
  const mintFor = (approvalId: string): { decisionLink?: MintDecisionLink } => {
    const mint = deps.decisionLink;
    if (mint === undefined) return {};
    const decisionLink: MintDecisionLink = (approver, action, ttlMs) => mint(approvalId, { approver, action, ttlMs: ttlMs ?? Number.MAX_SAFE_INTEGER });
    return { decisionLink };
  };

  const viewOf = (record: ApprovalRecord, at: Date): ApprovalView => describeApproval(record, registry.get(record.capabilityId), { now: at, selfApproval });

  // Building a notification runs the app's redaction hook: whatever goes wrong there is contained like a failed delivery.
  const raise = (type: ApprovalNotificationType, record: ApprovalRecord, build: (at: Date) => ApprovalNotification, given?: Date): void => {
    let at: Date | undefined;
    try {
      at = given ?? now();
      // Its own Date: a Date cannot be frozen, and the sweep's instant is also the audit's timestamp and the app's own.
      queue.enqueue(build(new Date(at.getTime())));
    } catch {
      if (!audit.enabled) return;
      try {
        audit.emit(buildFailedEvent(type, record, at ?? new Date()));
      } catch {
        // Nothing about a notification reaches the call.
      }
    }
  };

  return Object.freeze({
    requested(record: ApprovalRecord) {
      raise("approval.requested", record, (at) => {
        const view = viewOf(record, at);
        return Object.freeze({ type: "approval.requested", approvalId: view.id, capabilityId: view.capabilityId, at, view, types: view.types, progress: view.progress, ...mintFor(view.id) });
      });
    },
    decided(record: ApprovalRecord, decision: ApprovalDecision) {
      raise("approval.decided", record, (at) => {
        const view = viewOf(record, at);
        const approver = Object.freeze({
          id: decision.approver.id,
          kind: decision.approver.kind,
          ...(typeof decision.approver.displayName === "string" ? { displayName: decision.approver.displayName } : {}),
        });
        const vote = Object.freeze({ status: decision.status, approver, ...(typeof decision.comment === "string" ? { comment: decision.comment } : {}) });
        return Object.freeze({ type: "approval.decided", approvalId: view.id, capabilityId: view.capabilityId, at, view, types: view.types, progress: view.progress, vote });
      });
    },
    expiring(record: ApprovalRecord, sweptAt: Date) {
      raise(
        "approval.expiring",
        record,
        (at) => {
          const view = viewOf(record, at);
          const expiresInMs = Math.max(0, record.expiresAt.getTime() - at.getTime());
          return Object.freeze({ type: "approval.expiring", approvalId: view.id, capabilityId: view.capabilityId, at, view, types: view.types, progress: view.progress, expiresInMs, ...mintFor(view.id) });
        },
        sweptAt,
      );
    },
    escalated(record: ApprovalRecord, sweptAt: Date, step: { index: number; afterMs: number; to: readonly string[] }) {
      raise(
        "approval.escalated",
        record,
        (at) => {
          const view = viewOf(record, at);
          const to = Object.freeze([...step.to]);
          return Object.freeze({ type: "approval.escalated", approvalId: view.id, capabilityId: view.capabilityId, at, view, types: view.types, progress: view.progress, step: step.index, afterMs: step.afterMs, to, ...mintFor(view.id) });
        },
        sweptAt,
      );
    },
    expiryWarningMs,
  });
}

/** A TypeError at startup names what each option must be. */
function readNotifyOptions(config: ApprovalNotifyOptions) {
  const { notify, notifyTimeoutMs = DEFAULT_NOTIFY_TIMEOUT_MS, notifyQueueLimit = DEFAULT_NOTIFY_QUEUE_LIMIT } = config;
  if (notify !== undefined && typeof notify !== "function") throw new TypeError("approvals.notify must be a function: (notification) => void | Promise<void>.");
  if (typeof notifyTimeoutMs !== "number" || !Number.isFinite(notifyTimeoutMs) || notifyTimeoutMs <= 0) {
    throw new TypeError(`approvals.notifyTimeoutMs must be a finite number > 0, got ${String(notifyTimeoutMs)}.`);
  }
  if (typeof notifyQueueLimit !== "number" || !Number.isSafeInteger(notifyQueueLimit) || notifyQueueLimit < 1) {
    throw new TypeError(`approvals.notifyQueueLimit must be a positive integer, got ${String(notifyQueueLimit)}.`);
  }
  return { notify, timeoutMs: notifyTimeoutMs, limit: notifyQueueLimit, expiryWarningMs: readExpiryWarningMs(config.expiryWarningMs) };
}

/** Ten minutes: long enough to act on, short enough not to read as a second request. */
const DEFAULT_EXPIRY_WARNING_MS = 10 * 60_000;

function readExpiryWarningMs(value: unknown): number | false {
  if (value === undefined) return DEFAULT_EXPIRY_WARNING_MS;
  if (value === false) return false;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`approvals.expiryWarningMs must be a positive integer (milliseconds before expiry) or false, got ${String(value)}.`);
  }
  return value;
}

/** The actor is whoever raised the notification: the approver of a decision, otherwise the requester. */
function failedEvent(notification: ApprovalNotification, reason: ApprovalNotificationFailure, timestamp: Date): AgentAuditEvent {
  const actor: AuditActorRef = toAuditActorRef(notification.type === "approval.decided" ? notification.vote.approver : notification.view.requester);
  return Object.freeze({
    type: "approval.notification_failed",
    timestamp,
    surface: notification.view.surface,
    actor,
    capabilityId: notification.capabilityId,
    data: Object.freeze({ approvalId: notification.approvalId, notification: notification.type, reason }),
  }) as AgentAuditEvent;
}

/** A notification that could not even be built (a hostile record): recorded as failed, from the record's requester. */
function buildFailedEvent(type: ApprovalNotificationType, record: ApprovalRecord, timestamp: Date): AgentAuditEvent {
  return Object.freeze({
    type: "approval.notification_failed",
    timestamp,
    surface: record.surface,
    actor: toAuditActorRef(record.actor),
    capabilityId: record.capabilityId,
    data: Object.freeze({ approvalId: record.id, notification: type, reason: "failed" }),
  }) as AgentAuditEvent;
}
