import { createInMemoryApprovalCoordinator, type ApprovalCoordinator, type ApprovalListFilter, type ApprovalRecord, type GrantStore } from "@orpc-agent/core";
import { createApprovalShortcuts, type ApprovalShortcuts } from "./approval-shortcuts.js";

/** A standalone in-memory coordinator with test shortcuts. */
export type ApprovalProbe = ApprovalCoordinator &
  GrantStore &
  ApprovalShortcuts & {
    list(filter?: ApprovalListFilter): Promise<ApprovalRecord[]>;
    claimNotice(id: string, notice: string, at: Date): Promise<boolean>;
  };

/**
 * An in-memory approval coordinator plus `pending/approve/reject`, for code that takes a coordinator directly.
 * It bypasses the runtime wrapper: deciding here emits no decision event and does not refuse self-approval
 * (the runtime still refuses such a record at resume, docs/architecture/spec/core.md#core-r4). Use `t.approvals` to go through the runtime.
 *
 * @example
 * import { createAgentRuntime, type Actor, type AgentGovernance } from "@orpc-agent/core";
 * import { approvalProbe, testClock } from "@orpc-agent/testing";
 * declare const governance: AgentGovernance, actor: Actor;
 * const clock = testClock();
 * const probe = approvalProbe({ now: clock.now });
 * const runtime = createAgentRuntime({ governance, approvals: { coordinator: probe } });
 * await runtime.invoke("orders.refund", { orderId: "o1", amount: 900 }, { actor, context: {} });
 * const [request] = await probe.pending();
 * await probe.approve(request.id, { id: "u_manager", kind: "user" });
 */
export function approvalProbe(options: { now?: () => Date } = {}): ApprovalProbe {
  const coordinator = createInMemoryApprovalCoordinator(options.now ? { now: options.now } : {});
  const shortcuts = createApprovalShortcuts((id, decision) => coordinator.decide(id, decision), coordinator);
  return {
    create: (request) => coordinator.create(request),
    get: (id) => coordinator.get(id),
    decide: (id, decision) => coordinator.decide(id, decision),
    markConsumed: (id, executionId) => coordinator.markConsumed(id, executionId),
    list: (filter) => coordinator.list(filter),
    // So a runtime over the probe can sweep (escalation and expiry warnings).
    claimNotice: (id, notice, at) => coordinator.claimNotice(id, notice, at),
    // The in-memory coordinator's grant operations, so a runtime over the probe keeps standing grants.
    createGrant: (terms) => coordinator.createGrant(terms),
    getGrant: (id) => coordinator.getGrant(id),
    listGrants: (filter) => coordinator.listGrants(filter),
    useGrant: (id, use) => coordinator.useGrant(id, use),
    revokeGrant: (id, revocation) => coordinator.revokeGrant(id, revocation),
    ...shortcuts,
  };
}
