import { createAgentRuntime, type AgentRuntime } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink, type PgAuditSink } from "@orpc-agent/postgres";
import type { AppContext } from "../api/context.js";
import { governance } from "./governance.js";
import type { Storage } from "./storage.js";

export type BoardRuntime = { runtime: AgentRuntime<AppContext>; auditSink: PgAuditSink; shutdown(): Promise<void> };

// The offline demo needs no setup; the fallback is public, so a deployment sets APPROVAL_SEAL_SECRET.
const DEMO_ONLY_SECRET = "demo-only: set APPROVAL_SEAL_SECRET outside the demo";

/** The governed runtime: approvals and a strict audit trail in the app's own database. */
export function createBoardRuntime(storage: Storage): BoardRuntime {
  const auditSink = createPgAuditSink({ query: storage.query });
  const runtime = createAgentRuntime<AppContext>({
    governance,
    approvals: {
      coordinator: createPgApprovalCoordinator({ query: storage.query }),
      seal: { keys: [{ id: "demo", secret: process.env.APPROVAL_SEAL_SECRET ?? DEMO_ONLY_SECRET }] },
    },
    audit: { sinks: [auditSink], strict: true },
  });
  return {
    runtime,
    auditSink,
    async shutdown() {
      await runtime.drainAudit();
      await auditSink.close();
    },
  };
}
