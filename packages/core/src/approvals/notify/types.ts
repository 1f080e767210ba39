import type { ApprovalProgress } from "../quorum.js";
import type { ApprovalView, ApprovalViewActor } from "../view/types.js";
import type { DecisionLink, DecisionLinkAction } from "../links/types.js";
import type { Actor } from "../../vocabulary/types.js";

/** What every approval notification carries: the approval as approvers may see it, never its stored input. */
type ApprovalNotificationBase = {
  readonly approvalId: string;
  readonly capabilityId: string;
  /** When the runtime raised it (its `now`). */
  readonly at: Date;
  /** `describeApproval` of the record at that moment: redacted input, who may decide, expiry relative to `at`. */
  readonly view: ApprovalView;
  /** The approval types demanded (as `view.types`). */
  readonly types: readonly string[];
  /** Quorum progress (as `view.progress`). */
  readonly progress: ApprovalProgress;
};

/**
 * Mints a signed decision link for this approval (`runtime.approvals.decisionLink`, under the same guards): for the
 * approver the notifier routes the message to, valid `ttlMs` or, by default, until the approval expires. Present on
 * the notifications of a pending approval when the runtime has `approvals.links`; a function, so it never travels in
 * a serialized payload. docs/guides/notifying-approvers.md
 */
export type MintDecisionLink = (approver: Actor, action: DecisionLinkAction, ttlMs?: number) => Promise<DecisionLink>;

/** What the notification of a pending approval adds: a way to put decision links in the message. */
type PendingApprovalNotification = ApprovalNotificationBase & { readonly decisionLink?: MintDecisionLink };

/** An invocation stored a pending approval. */
export type ApprovalRequestedNotification = PendingApprovalNotification & { readonly type: "approval.requested" };

/**
 * `runtime.approvals.decide` succeeded: `vote` is the decision just taken. On a quorum request an approval short of
 * the quorum leaves `view.status` `pending` (`view.progress` counts it).
 */
export type ApprovalDecidedNotification = ApprovalNotificationBase & {
  readonly type: "approval.decided";
  readonly vote: { readonly status: "approved" | "rejected"; readonly approver: ApprovalViewActor; readonly comment?: string };
};

/** A pending approval nears its expiry (raised by a sweep the app schedules). */
export type ApprovalExpiringNotification = PendingApprovalNotification & { readonly type: "approval.expiring"; readonly expiresInMs: number };

/** A pending approval waited past an escalation step of its capability (raised by a sweep the app schedules). */
export type ApprovalEscalatedNotification = PendingApprovalNotification & {
  readonly type: "approval.escalated";
  /** Which step, from 0. */
  readonly step: number;
  /** How long after the request the step is due. */
  readonly afterMs: number;
  /** The step's `to` as the capability declares it: whom the notifier should tell (opaque to core). */
  readonly to: readonly string[];
};

/** Every approval notification, discriminated by `type`; deep-frozen. */
export type ApprovalNotification =
  | ApprovalRequestedNotification
  | ApprovalDecidedNotification
  | ApprovalExpiringNotification
  | ApprovalEscalatedNotification;

export type ApprovalNotificationType = ApprovalNotification["type"];

/**
 * Receives approval notifications (`approvals.notify`), one at a time, off every call's path: what it returns,
 * throws or never settles changes no decision and no answer. A delivery that fails, times out or is dropped from the
 * full queue is recorded as an `approval.notification_failed` audit event.
 */
export type ApprovalNotifier = (notification: ApprovalNotification) => void | Promise<void>;

/** Why a notification was not delivered: the notifier threw or rejected, outlived `notifyTimeoutMs`, or the queue was full. */
export type ApprovalNotificationFailure = "failed" | "timeout" | "dropped";

/**
 * The notifier seam of `createAgentRuntime({ approvals })`: approvers reached where they are (Slack, email, a
 * webhook), best effort and never on the call's path. docs/guides/approvals.md
 */
export type ApprovalNotifyOptions = {
  /** Receives `approval.requested` when an invocation stores a pending approval and `approval.decided` after each successful `runtime.approvals.decide`. */
  notify?: ApprovalNotifier;
  /**
   * The most one delivery may take; past it the delivery counts as failed (`timeout`) and the next one starts.
   * @default 10_000
   */
  notifyTimeoutMs?: number;
  /**
   * The most notifications waiting for delivery; one more is dropped (`dropped`), the queued ones keep their order.
   * @default 1_000
   */
  notifyQueueLimit?: number;
  /**
   * How long before `expiresAt` `runtime.approvals.sweep()` sends `approval.expiring`, once per approval; `false` sends
   * none. An approval whose whole lifetime is shorter gets no warning: its `approval.requested` already says when it
   * expires. docs/guides/notifying-approvers.md#escalation-and-expiry-warnings
   * @default 600_000 (10 minutes)
   */
  expiryWarningMs?: number | false;
};
