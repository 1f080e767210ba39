// Public entry of @orpc-agent/core, grouped as docs/architecture/spec/core.md#core-0 lists it.

// Capability model
export { agentProcedure } from "./capability/agent-procedure.js";
export type { AgentProcedureContext, AgentProcedureMeta, ORPCV2BuilderLike, OrpcV2BuilderLike } from "./capability/agent-procedure.js";
export { agentMeta } from "./capability/agent-meta.js";
export type { AgentMetaDeclaration } from "./capability/agent-meta.js";
export type { AgentInvocationInfo, AgentMeta, MCPToolAnnotations, McpToolAnnotations, ProgressUpdate } from "./capability/types.js";
export type { Actor, ActingAgent, ExposureSurface, RiskLevel, SideEffect } from "./vocabulary/types.js";

// Registry
export { createCapabilityRegistry } from "./registry/create-registry.js";
export { defaultToolName, isReservedToolName } from "./registry/tool-name.js";
export type {
  AgentCapability,
  CapabilityDefs,
  CapabilityQuery,
  CapabilityRegistry,
  RegistryInspection,
} from "./registry/types.js";

// Policies and governance
export { definePolicy } from "./policy/define-policy.js";
export { allow, deny, hide, requireApproval } from "./policy/decisions.js";
export { composePolicies } from "./policy/compose.js";
export type { AgentPolicy, PolicyDecision, PolicyDecisionRecord, PolicyPhase, PolicyRequest, PolicyScope, PolicyMode } from "./capability/types.js";
export { defineGovernance } from "./governance/define-governance.js";
export type { AgentGovernance, PolicyManifestEntry } from "./governance/types.js";

// Runtime
export { createAgentRuntime } from "./runtime/create-runtime.js";
export type { AgentRuntimeOptions, RuntimeDefaults } from "./runtime/create-runtime.js";
export { unwrap } from "./runtime/unwrap.js";
export type {
  AgentRuntime,
  CapabilityDescriptor,
  DescribeOptions,
  DescribeScope,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
  ResumeOptions,
} from "./runtime/types.js";

// Errors
export { CapabilityError } from "./errors/capability-error.js";
export type { CapabilityErrorOptions } from "./errors/capability-error.js";
export type { FailureStage } from "./errors/failure-stage.js";
export type { ErrorCode } from "./errors/codes.js";
export type { ModelError } from "./errors/model-error.js";

// Approvals
export { createInMemoryApprovalCoordinator } from "./approvals/in-memory-coordinator.js";
export { approvalAlreadyApprovedError, approvalNotFoundError, approvalNotPendingError, assertApprovalDecision, readApprovalDecision } from "./approvals/decide-refusals.js";
export { approvalProgress } from "./approvals/quorum.js";
export type { ApprovalProgress } from "./approvals/quorum.js";
// One approval view for every channel, and the notifier seam (issue 50)
export { describeApproval } from "./approvals/view/describe-approval.js";
export { mayDecide } from "./approvals/view/may-decide.js";
export type {
  ApprovalDeciders,
  ApprovalView,
  ApprovalViewActor,
  ApprovalViewAgent,
  ApprovalViewCapability,
  ApprovalViewDecision,
  ApprovalViewField,
  ApprovalViewInput,
  ApprovalViewVote,
  DescribeApprovalOptions,
} from "./approvals/view/types.js";
export type {
  ApprovalDecidedNotification,
  ApprovalEscalatedNotification,
  ApprovalExpiringNotification,
  ApprovalNotification,
  ApprovalNotificationFailure,
  ApprovalNotificationType,
  ApprovalNotifier,
  ApprovalNotifyOptions,
  ApprovalRequestedNotification,
} from "./approvals/notify/types.js";
export type { ApprovalEscalationStep } from "./approvals/notify/escalation.js";
export type {
  ApprovalCoordinator,
  ApprovalDecision,
  ApprovalListFilter,
  ApprovalRecord,
  ApprovalRequest,
  ApprovalsConfig,
  ApprovalStatus,
  ApprovalSweepOptions,
  ApprovalSweepResult,
  ApprovalVote,
  RuntimeApprovalDecision,
  RuntimeApprovals,
} from "./approvals/types.js";
// Standing grants (SI-13)
export type {
  GrantBudget,
  GrantCaps,
  GrantCondition,
  GrantConditionOperator,
  GrantIssueOptions,
  GrantListFilter,
  GrantRecord,
  GrantRequest,
  GrantRevocation,
  GrantScope,
  GrantStatus,
  GrantStore,
  GrantTerms,
  GrantUse,
  RuntimeGrantListFilter,
  RuntimeGrants,
} from "./approvals/grants/types.js";
export type { ApprovalSealKey, ApprovalSealOptions } from "./approvals/seal/keys.js";
export { createKeyedMac } from "./approvals/seal/keyed-mac.js";
export type { DecisionLinkKey, DecisionLinkOptions } from "./approvals/links/keys.js";
export type { DecideWithLinkOptions, DecisionLink, DecisionLinkAction, DecisionLinkContents, DecisionLinkRequest } from "./approvals/links/types.js";
export type { KeyedMac } from "./approvals/seal/keyed-mac.js";
export { canonicalInputHash } from "./approvals/hash.js";

// Audit and tracing
export type {
  AgentAuditEvent,
  AgentAuditEventType,
  AuditActorRef,
  AuditChainLink,
  PolicyBatchVerdict,
  AuditConfig,
  AuditSink,
  DeniedReason,
} from "./audit/types.js";
// The audit hash chain (ADR-025): records, checkpoints, offline verification.
export { AUDIT_CHAIN_GENESIS, auditChainRecord, auditRecordHash, parseReceiptId } from "./audit/chain/record.js";
export type { AuditChainRecord } from "./audit/chain/record.js";
export { auditCheckpointPayload } from "./audit/chain/checkpoint.js";
export type { AuditCheckpoint } from "./audit/chain/checkpoint.js";
export { verifyAuditTrail } from "./audit/chain/verify.js";
export type {
  AuditTrailEntry,
  AuditTrailFinding,
  AuditTrailFindingKind,
  AuditTrailReport,
  VerifyAuditTrailOptions,
} from "./audit/chain/verify.js";
export type { SpanAttributes, SpanHandle, TracingAdapter } from "./tracing/types.js";
