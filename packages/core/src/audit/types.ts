import type { Actor, ExposureSurface, RiskLevel, SideEffect } from "../vocabulary/types.js";
import type { PolicyDecisionRecord, PolicyPhase } from "../capability/types.js";

/** The combined outcome of a batch's enforced policies. */
export type PolicyBatchVerdict = "allow" | "deny" | "hide" | "require-approval" | "error";
import type { ErrorCode } from "../errors/codes.js";
import type { GrantConditionOperator, GrantScope } from "../approvals/grants/types.js";
import type { ApprovalNotificationFailure, ApprovalNotificationType } from "../approvals/notify/types.js";
import type { FailureStage } from "../errors/failure-stage.js";

/** Where an event sits in its chain: one chain per runtime, so several processes never share a counter (ADR-025). */
export type AuditChainLink = {
  /** `chn_<uuid>`, fixed for the life of one runtime. */
  readonly id: string;
  /** 1, 2, 3… in emission order, without gaps. */
  readonly seq: number;
  /** `hash` of the event at `seq - 1`; `AUDIT_CHAIN_GENESIS` for seq 1. */
  readonly prev: string;
  /** SHA-256 (hex) of this event's record, `prev` included: see `auditRecordHash`. */
  readonly hash: string;
};

/** An actor reduced to what evidence may hold: never attributes or display name (SI-10). */
export type AuditActorRef = { id: string; kind: Actor["kind"]; via?: { id: string } };

export type DeniedReason = "unknown" | "not-exposed" | "hidden" | "policy-denied" | "policy-failed";

type AuditEventData = {
  "capabilities.discovered": { count: number; surface: ExposureSurface; digest: string; capabilityIds?: string[] };
  "capability.requested": { sideEffect?: SideEffect; risk?: RiskLevel };
  "capability.denied": { reason: DeniedReason; publicCode: ErrorCode; policyDecisions?: PolicyDecisionRecord[] };
  "capability.approval_requested": {
    approvalId: string;
    reasons: string[];
    types: string[];
    expiresAt: Date;
    /** Distinct approvers needed; present only above 1. */
    quorum?: number;
    reRequest?: { of: string; consumedByExecutionId: string; operator: AuditActorRef; reason: string };
  };
  /**
   * `grant`: the call was covered by a standing grant (SI-13), whose id is also `approvalId`; `usesLeft` after this use.
   * `via: "link"`: decided through a signed decision link, `linkId` naming the link (a hash of its nonce, never the token).
   */
  /** `editedInputHash`: approved with changes, the hash of the edited input the approval now binds (the event's `inputHash` is the request's). */
  "capability.approved": { approvalId: string; approver: AuditActorRef; comment?: string; approvalCount?: number; quorum?: number; grant?: { id: string; usesLeft: number }; via?: "link"; linkId?: string; editedInputHash?: string };
  "capability.rejected": { approvalId: string; approver: AuditActorRef; comment?: string; approvalCount?: number; quorum?: number; via?: "link"; linkId?: string };
  /** A quorum request: one approval counted, the quorum not reached yet; the request stays pending. */
  "capability.approval_recorded": { approvalId: string; approver: AuditActorRef; comment?: string; approvalCount: number; quorum: number; via?: "link"; linkId?: string };
  /** A shadow policy's stance differed from the enforced outcome of its batch; the outcome did not change. */
  "capability.shadow_diverged": { policy: string; phase: PolicyPhase; decision: PolicyDecisionRecord["type"]; enforced: PolicyBatchVerdict };
  "capability.started": { attempt: 1; approvalId?: string };
  "capability.retried": { attempt: number; previousErrorCode: ErrorCode };
  /** `events`: a streaming capability's event count (every terminal event of a stream carries it). */
  "capability.completed": { durationMs: number; attempts: number; events?: number };
  "capability.failed": {
    code: ErrorCode;
    stage: FailureStage;
    retryable: boolean;
    attempts: number;
    executedBeforeFailure?: true;
    effectStatus?: "unknown";
    policyDecisions?: PolicyDecisionRecord[];
    events?: number;
  };
  "capability.cancelled": { code: "TIMEOUT" | "CANCELLED"; durationMs: number; effectStatus?: "unknown"; events?: number };
  /** A standing grant issued (SI-13). The actor is its first issuer; condition values stay in the grant record. */
  "grant.issued": {
    grantId: string;
    principal: AuditActorRef;
    scope: GrantScope;
    conversationId?: string;
    types: string[];
    uses: number;
    expiresAt: Date;
    issuers: AuditActorRef[];
    conditions: { path: string; op: GrantConditionOperator }[];
    budget?: { path: string; max: number };
    approvalId?: string;
  };
  /** A standing grant revoked (SI-13); no call is covered by it from then on. The actor is who revoked it. */
  "grant.revoked": { grantId: string; principal: AuditActorRef; usesLeft: number; reason?: string };
  /**
   * An approval notification (`approvals.notify`) was not delivered: the notifier threw, rejected or outlived
   * `notifyTimeoutMs` (`failed`, `timeout`), or the queue was full (`dropped`). No decision or answer changed.
   */
  "approval.notification_failed": { approvalId: string; notification: ApprovalNotificationType; reason: ApprovalNotificationFailure };
  /**
   * `runtime.approvals.sweep()` escalated a pending approval: step `step` (from 0) of its capability's
   * `approval.escalate`, due `afterMs` after the request, to `to`. Once per step across instances; recorded when the
   * sweep claims it, whether or not the notifier then delivers (a failure adds `approval.notification_failed`).
   */
  "approval.escalated": { approvalId: string; step: number; afterMs: number; to: string[] };
};

export type AgentAuditEventType = keyof AuditEventData;

type AuditEnvelope<T extends AgentAuditEventType> = {
  type: T;
  timestamp: Date;
  surface: ExposureSurface;
  actor: AuditActorRef;
  executionId?: string;
  capabilityId?: string;
  correlationId?: string;
  inputHash?: string;
  /** With `audit.chain`: the event's place in the runtime's hash chain (ADR-025). */
  chain?: AuditChainLink;
  /** With `audit.chain`, on terminal events: `<chainId>.<seq>`, also on the execution's result. */
  receiptId?: string;
  data: AuditEventData[T];
};

/** Union of every audit event, discriminated by `type`. docs/architecture/spec/core.md#core-11 */
export type AgentAuditEvent = { [T in AgentAuditEventType]: AuditEnvelope<T> }[AgentAuditEventType];

export type AuditSink = (event: AgentAuditEvent) => void | Promise<void>;

export type AuditConfig =
  | AuditSink
  | AuditSink[]
  | {
      sinks: AuditSink[];
      /** Await the `capability.started` write on every sink before the procedure runs. */
      strict?: boolean;
      /** Add `capabilityIds` to `capabilities.discovered`. */
      verbose?: boolean;
      /** Link every event into a per-runtime SHA-256 hash chain (`event.chain`) and give results a `receiptId`. */
      chain?: boolean;
      onSinkError?: (err: unknown, event: AgentAuditEvent) => void;
    };
