// Public entry of @orpc-agent/postgres (docs/architecture/spec/postgres.md#postgres-2; the invocation journal: docs/architecture/spec/distributed.md#distributed-5-6).

// The driver seam
export type { PgQuery } from "./query.js";
export { pgQueryFromPool } from "./pool.js";
export type { PgPoolLike, PgQueryFromPoolOptions } from "./pool.js";

// Decisions across instances: LISTEN/NOTIFY beside the query seam
export type { PgListen, PgListenEvents, PgUnlisten } from "./notify/listen.js";
export { pgListenFromClient } from "./notify/pg-listen-from-client.js";
export type { PgListenClientLike, PgListener, PgListenFromClientOptions } from "./notify/pg-listen-from-client.js";
export { createPgDecisionFeed } from "./notify/create-pg-decision-feed.js";
export type { PgDecisionFeed, PgDecisionFeedOptions } from "./notify/create-pg-decision-feed.js";
export { pgDecisionChannel } from "./notify/decision-channel.js";
export { createPgTaskCancellations } from "./notify/create-pg-task-cancellations.js";
export type { PgTaskCancellations, PgTaskCancellationsOptions } from "./notify/create-pg-task-cancellations.js";

// Approvals
export { createPgApprovalCoordinator } from "./approvals/create-pg-approval-coordinator.js";
export type { PgApprovalCoordinatorOptions } from "./approvals/create-pg-approval-coordinator.js";
export { findConsumedNeverStarted } from "./approvals/find-consumed-never-started.js";
export type { ConsumedNeverStarted, FindConsumedNeverStartedOptions } from "./approvals/find-consumed-never-started.js";
export type { RecoveryRuntimeDefaults } from "./approvals/execution-bound.js";
export { APPROVALS_DDL } from "./ddl.js";

// Audit
export { createPgAuditSink } from "./audit/create-pg-audit-sink.js";
export type { PgAuditSink, PgAuditSinkOptions } from "./audit/create-pg-audit-sink.js";
export type { PgAuditCheckpointOptions } from "./audit/checkpoints.js";
export { AUDIT_CHAIN_DDL } from "./audit/chain-ddl.js";
export { readPgAuditTrail } from "./audit/read-trail.js";
export type { PgAuditTrail, ReadPgAuditTrailOptions } from "./audit/read-trail.js";
export { AUDIT_DDL } from "./ddl.js";

// Invocation journal
export { createPgInvocationJournal } from "./journal/create-pg-invocation-journal.js";
export type { PgInvocationJournalOptions } from "./journal/create-pg-invocation-journal.js";
export { INVOCATIONS_DDL } from "./ddl.js";

// MCP tasks (issue 47): the MCP adapter's task store, its table created by INVOCATIONS_DDL
export { createPgMCPTaskStore } from "./mcp-tasks/create-pg-mcp-task-store.js";
export type { PgMCPTaskRecordShape, PgMCPTaskStore, PgMCPTaskStoreOptions } from "./mcp-tasks/create-pg-mcp-task-store.js";

// MCP elicitation state (issue 48): what the MCP endpoint remembers for 2025-era clients, shared by every instance;
// its table created by INVOCATIONS_DDL
export { createPgMCPElicitationStateStore } from "./mcp-elicitation/create-pg-mcp-elicitation-state-store.js";
export type {
  PgMCPDeclaredCapabilities,
  PgMCPElicitationStateStore,
  PgMCPElicitationStateStoreOptions,
  PgMCPPendingElicitation,
} from "./mcp-elicitation/create-pg-mcp-elicitation-state-store.js";
