import { createAgentRuntime, type AgentRuntime } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink, type PgAuditSink } from "@orpc-agent/postgres";
import type { AppContext } from "../api/context.js";
import { governance } from "./governance.js";
import type { Storage } from "./storage.js";

export type SupportRuntime = { runtime: AgentRuntime<AppContext>; auditSink: PgAuditSink; shutdown(): Promise<void> };

/**
 * The governed runtime of this app: approvals and audit in the app's own database. Cheap to build; the coordinator
 * and sink hold no state beyond the database, so any process sharing it can decide and resume the same approvals.
 */
export function createSupportRuntime(storage: Storage): SupportRuntime {
  const auditSink = createPgAuditSink({ query: storage.query });
  const runtime = createAgentRuntime<AppContext>({
    governance,
    approvals: { coordinator: createPgApprovalCoordinator({ query: storage.query }) },
    audit: { sinks: [auditSink], strict: true },
  });
  return {
    runtime,
    auditSink,
    // Shutdown order: let every audit write settle, flush the sink, then close the database.
    async shutdown() {
      await runtime.drainAudit();
      await auditSink.close();
    },
  };
}
