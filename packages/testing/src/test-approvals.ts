import type { AgentRuntime, ApprovalCoordinator } from "@orpc-agent/core";
import { createApprovalShortcuts, type ApprovalShortcuts } from "./approval-shortcuts.js";

/** `t.approvals`: the runtime's coordinator plus `pending/approve/reject`. */
export type TestApprovals = ApprovalCoordinator & ApprovalShortcuts;

/**
 * Decides through `runtime.approvals`, so decision events are emitted and self-approval is refused exactly as
 * in production (docs/architecture/spec/core.md#core-10): `approve` by the requester rejects with `APPROVAL_SELF_APPROVAL`, record still pending.
 */
export function createTestApprovals(runtime: AgentRuntime<any>): TestApprovals {
  const approvals = runtime.approvals;
  const testApprovals: TestApprovals = {
    create: (request) => approvals.create(request),
    get: (id) => approvals.get(id),
    decide: (id, decision) => approvals.decide(id, decision),
    markConsumed: (id, executionId) => approvals.markConsumed(id, executionId),
    ...createApprovalShortcuts((id, decision) => approvals.decide(id, decision), approvals),
  };
  if (typeof approvals.list === "function") {
    const list = approvals.list.bind(approvals);
    testApprovals.list = (filter) => list(filter);
  }
  return testApprovals;
}
