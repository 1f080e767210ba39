import type { NotifyApprovalView } from "../../src/index.js";

/** A pending refund as core's describeApproval shows it: quorum 2, Ben counted, Dana asking through her assistant. */
export function refundView(overrides: Partial<NotifyApprovalView> = {}): NotifyApprovalView {
  return {
    id: "apr_1",
    capabilityId: "orders.refund",
    title: "Refund an order",
    description: "Refunds part or all of an order to the customer's card.",
    reasons: ["Refunds above 100 need a manager"],
    risk: "high",
    sideEffect: "write",
    destructive: false,
    highRiskWrite: true,
    requester: { id: "user_dana", displayName: "Dana" },
    actingAgent: { id: "agent_support", displayName: "Support assistant" },
    expiresAt: new Date("2030-01-01T01:00:00Z"),
    expiresInMs: 2 * 3_600_000 + 5 * 60_000,
    status: "pending",
    progress: { approvals: 1, quorum: 2, label: "1 of 2 approvals" },
    voters: [{ approver: { id: "user_ben", displayName: "Ben" }, at: new Date("2030-01-01T00:10:00Z") }],
    input: {
      shown: true,
      fields: [
        { key: "orderId", label: "Order", value: "ord_42" },
        { key: "amountCents", label: "Amount (cents)", value: 32000 },
      ],
    },
    ...overrides,
  };
}

export const LINKS = { approve: "https://app.example/approvals/decide?t=approve-token", reject: "https://app.example/approvals/decide?t=reject-token" };
