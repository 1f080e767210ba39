import type { ApprovalSealer } from "../approvals/seal/sealer.js";
import type { ApprovalCoordinator, ApprovalDecision, ApprovalRequest } from "../approvals/types.js";
import type { GrantStore } from "../approvals/grants/types.js";
import type { SyncGrantOperations } from "../approvals/grants/sync-grants.js";
import type { AuditEmitter } from "../audit/emitter.js";
import type { ExposureSurface } from "../vocabulary/types.js";
import type { AgentGovernance } from "../governance/types.js";
import type { TracingAdapter } from "../tracing/types.js";
import type { CapabilityPlan } from "./plan.js";
import type { RuntimeNotifications } from "./approvals/notifications.js";

export type ResolvedDefaults = {
  readonly timeoutMs: number;
  readonly policyTimeoutMs: number;
  readonly policyConcurrency: number;
  readonly discoveryBudgetMs: number;
  readonly approvalExpiresInMs: number;
  readonly streamIdleTimeoutMs: number;
  readonly streamMaxEvents: number;
  readonly progressIntervalMs: number;
};

/** What every pipeline function of one runtime reads. Built once by createAgentRuntime. */
export type RuntimeState = {
  readonly governance: AgentGovernance;
  readonly plans: ReadonlyMap<string, CapabilityPlan>;
  /** Plans exposed on each surface, in registry order (describe's first step). */
  readonly exposedBySurface: Readonly<Record<ExposureSurface, readonly CapabilityPlan[]>>;
  readonly defaults: ResolvedDefaults;
  readonly now: () => Date;
  /** The same clock in milliseconds (`clockReading`): `Date.now` itself under the default clock, so a hot path makes no Date. */
  readonly clockMs: () => number;
  readonly audit: AuditEmitter;
  readonly tracing: TracingAdapter | undefined;
  /** The app's coordinator, behind the sealing wrapper when `approvals.seal` is set. */
  readonly coordinator: ApprovalCoordinator;
  /** Verifies stored approvals at resume; absent without `approvals.seal`. */
  readonly sealer: ApprovalSealer | undefined;
  readonly approvalHandler: ((req: ApprovalRequest) => Promise<ApprovalDecision | undefined>) | undefined;
  readonly rejectSelfApproval: boolean;
  /** The types a requester may confirm themselves (`approvals.requesterConfirmable`). */
  readonly requesterConfirmable: ReadonlySet<string>;
  /** The app's coordinator's grant operations (SI-13); absent when it lacks any of them, and then no grant exists. */
  readonly grantStore: GrantStore | undefined;
  /** Its same-tick lookup and use (the in-memory coordinator's), read once here; absent when a seal must be verified. */
  readonly grantsNow: SyncGrantOperations | undefined;
  /** `approvals.notify`, behind its bounded queue; absent without a notifier. */
  readonly notifications?: RuntimeNotifications | undefined;
};
