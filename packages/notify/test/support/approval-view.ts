// Approval views as core builds them: describeApproval over a stored record and the capability's registry entry.
import { describeApproval, type ApprovalNotification, type ApprovalRecord, type ApprovalView, type ApprovalViewCapability } from "@orpc-agent/core";

export const NOW = new Date("2030-01-01T00:00:00Z");
const BEN = { id: "user_ben", kind: "user" as const, displayName: "Ben" };

/** A pending refund: quorum 2 with Ben counted, Dana asking through her support assistant, 2 h 5 min left. */
export function refundRecord(overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    id: "apr_1",
    capabilityId: "orders.refund",
    surface: "mcp",
    actor: { id: "user_dana", kind: "user", displayName: "Dana", via: { id: "agent_support", displayName: "Support assistant" } },
    input: { orderId: "ord_42", amountCents: 32000, cardToken: "tok_secret" },
    inputHash: "0".repeat(64),
    reasons: ["Refunds above 100 need a manager"],
    types: ["manager"],
    risk: "high",
    sideEffect: "write",
    requestedAt: new Date(NOW.getTime() - 10 * 60_000),
    expiresAt: new Date(NOW.getTime() + 2 * 3_600_000 + 5 * 60_000),
    quorum: 2,
    status: "pending",
    approvals: [{ approver: BEN, at: new Date(NOW.getTime() - 60_000) }],
    ...overrides,
  };
}

/** The refund's registry entry: a title, labels in its input schema, and a hook that keeps the card token from approvers. */
export function refundCapability(meta: NonNullable<ApprovalViewCapability["meta"]> = {}): ApprovalViewCapability {
  return {
    id: "orders.refund",
    inputSchema: {
      type: "object",
      properties: { orderId: { type: "string", title: "Order" }, amountCents: { type: "integer", title: "Amount (cents)" }, cardToken: { type: "string" } },
    },
    meta: {
      description: "Refunds part or all of an order to the customer's card.",
      adapters: { mcp: { annotations: { title: "Refund an order" } } },
      redact: { approvalInput: (input) => ({ orderId: (input as { orderId: string }).orderId, amountCents: (input as { amountCents: number }).amountCents }) },
      ...meta,
    },
  };
}

export function refundView(record: Partial<ApprovalRecord> = {}, capability: ApprovalViewCapability | undefined = refundCapability()): ApprovalView {
  return describeApproval(refundRecord(record), capability, { now: NOW });
}

/** Priya approved with a smaller amount (approve with changes: one approver, no quorum). */
export function approvedWithChanges(): ApprovalRecord {
  const priya = { id: "user_priya", kind: "user" as const, displayName: "Priya" };
  const input = { orderId: "ord_42", amountCents: 8000, cardToken: "tok_secret" };
  return refundRecord({ status: "approved", quorum: undefined, approvals: undefined, decision: { status: "approved", approver: priya, decidedAt: NOW, input, inputHash: "1".repeat(64) } });
}

/** The notification core raises for a view. */
export function requested(view: ApprovalView): ApprovalNotification {
  return { type: "approval.requested", approvalId: view.id, capabilityId: view.capabilityId, at: NOW, view, types: view.types, progress: view.progress };
}

export const LINKS = { approve: "https://app.example/approvals/decide?t=approve-token", reject: "https://app.example/approvals/decide?t=reject-token" };
