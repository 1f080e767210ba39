import type { Actor, AgentRuntime, ApprovalCoordinator, ApprovalRecord, GrantRecord, GrantRequest, RuntimeApprovals } from "@orpc-agent/core";
import { createApprovalShortcuts, TEST_APPROVER, type ApprovalShortcuts } from "./approval-shortcuts.js";

type GrantOperation = "createGrant" | "getGrant" | "listGrants" | "useGrant" | "revokeGrant";

/**
 * `t.approvals`: the runtime's coordinator plus `pending/approve/reject`, and `approveWithGrant`. `decide` is
 * `runtime.approvals.decide`, so a decision may carry a grant.
 */
export type TestApprovals = Omit<ApprovalCoordinator, "decide" | GrantOperation> &
  ApprovalShortcuts & {
    decide: RuntimeApprovals["decide"];
    /**
     * Approves and issues a standing grant with the approval (`runtime.approvals.decide` with `grant`); resolves to the
     * grant. Refusals reject as in production (`APPROVAL_SELF_APPROVAL`, `GRANT_*`), leaving the record pending.
     */
    approveWithGrant(id: string, grant: GrantRequest, approver?: Actor): Promise<GrantRecord>;
  };

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
    ...createApprovalShortcuts((id, decision) => approvals.decide(id, decision), approvals as ApprovalCoordinator),
    async approveWithGrant(id, grant, approver = TEST_APPROVER) {
      const decided: ApprovalRecord & { grant?: GrantRecord } = await approvals.decide(id, { status: "approved", approver, grant });
      // A quorum request stays pending after one approval and issues nothing; that decide refuses a grant anyway.
      if (decided.grant === undefined) throw new Error(`approveWithGrant: approval "${id}" was decided without issuing a grant`);
      return decided.grant;
    },
  };
  if (typeof approvals.list === "function") {
    const list = approvals.list.bind(approvals);
    testApprovals.list = (filter) => list(filter);
  }
  return testApprovals;
}
