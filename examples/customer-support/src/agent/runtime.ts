import { createAgentRuntime, type AgentRuntime, type ApprovalNotifier } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgAuditSink, type PgAuditSink } from "@orpc-agent/postgres";
import type { AppContext } from "../api/context.js";
import { governance } from "./governance.js";
import type { Storage } from "./storage.js";

export type SupportRuntime = { runtime: AgentRuntime<AppContext>; auditSink: PgAuditSink; shutdown(): Promise<void> };

/**
 * The governed runtime of this app: approvals and audit in the app's own database. Cheap to build; the coordinator
 * and sink hold no state beyond the database, so any process sharing it can decide and resume the same approvals.
 */
export function createSupportRuntime(storage: Storage, options: { notify?: ApprovalNotifier } = {}): SupportRuntime {
  const auditSink = createPgAuditSink({ query: storage.query });
  const runtime = createAgentRuntime<AppContext>({
    governance,
    // Sealed: a row edited in the approvals table is refused at resume (docs/guides/tamper-evident-approvals.md).
    // Decision links are signed with keys of their own (docs/guides/decision-links.md); `notify` tells approvers
    // where they are, best effort (docs/guides/notifying-approvers.md).
    approvals: {
      coordinator: createPgApprovalCoordinator({ query: storage.query }),
      seal: approvalSeal(),
      links: decisionLinkKeys(),
      ...(options.notify === undefined ? {} : { notify: options.notify }),
    },
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

// Every process that decides or resumes these approvals needs the same keys. The fallback keeps the offline demo
// free of setup; it is public, so a deployment sets APPROVAL_SEAL_SECRET from its secret store.
const DEMO_ONLY_SECRET = "demo-only: set APPROVAL_SEAL_SECRET outside the demo";

function approvalSeal() {
  return { keys: [{ id: "demo", secret: process.env.APPROVAL_SEAL_SECRET ?? DEMO_ONLY_SECRET }] };
}

// The links' own secret: at least 32 bytes and never the seal's (the runtime refuses a shared one at startup). The
// fallback is public like the seal's; a deployment sets DECISION_LINK_SECRET.
const DEMO_ONLY_LINK_SECRET = "demo-only decision links: set DECISION_LINK_SECRET outside the demo";

function decisionLinkKeys() {
  return { keys: [{ id: "demo-links", secret: process.env.DECISION_LINK_SECRET ?? DEMO_ONLY_LINK_SECRET }] };
}
