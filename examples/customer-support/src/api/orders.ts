import { ORPCError } from "@orpc/server";
import { z } from "zod";
import { agentMeta } from "@orpc-agent/core";
import { base } from "./base.js";

export const listOrders = base
  .input(z.object({ customerId: z.string() }))
  .meta(
    agentMeta({
      description: "List a customer's orders with totals (in cents) and status.",
      expose: { aiSdk: true, mcp: true, direct: true },
      sideEffect: "read",
      risk: "low",
      tags: ["orders"],
    }),
  )
  .handler(({ input, context }) => [...context.store.orders.values()].filter((o) => o.customerId === input.customerId));

export const refundOrder = base
  .input(
    z.object({
      orderId: z.string(),
      amountCents: z.number().int().positive().describe("Amount to refund, in cents"),
      reason: z.string().min(3).max(200),
    }),
  )
  .meta(
    agentMeta({
      description: "Refund part or all of an order to the customer's original payment method.",
      expose: { aiSdk: true, mcp: true, direct: true },
      sideEffect: "write",
      risk: "high",
      tags: ["orders", "refunds"],
      approval: { type: "manager", expiresInMs: 24 * 60 * 60 * 1000 },
      // What an approvals page shows a manager: the order and the amount, not free text the model wrote.
      redact: { approvalInput: (input) => ({ orderId: (input as { orderId: string }).orderId, amountCents: (input as { amountCents: number }).amountCents }) },
    }),
  )
  .handler(({ input, context }) => {
    const order = context.store.orders.get(input.orderId);
    if (!order) throw new ORPCError("NOT_FOUND", { message: `No order ${input.orderId}.` });
    if (input.amountCents > order.totalCents) throw new ORPCError("BAD_REQUEST", { message: "A refund cannot exceed the order total." });
    context.store.effects.refunds++;
    const refund = {
      id: `r_${context.store.refunds.length + 1}`,
      orderId: order.id,
      amountCents: input.amountCents,
      reason: input.reason,
      requestedBy: context.agent?.actor.id ?? context.user.id,
      ...(context.agent?.approval ? { approvedBy: context.agent.approval.approver.id } : {}),
    };
    context.store.refunds.push(refund);
    order.status = "refunded";
    return { refundId: refund.id, orderId: order.id, amountCents: refund.amountCents, approvedBy: refund.approvedBy ?? null };
  });
