import { eventIterator, ORPCError } from "@orpc/server";
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
      // Titles label the fields wherever an approval is shown (the approvals page, Slack, email).
      orderId: z.string().meta({ title: "Order" }),
      amountCents: z.number().int().positive().meta({ title: "Amount (cents)", description: "Amount to refund, in cents" }),
      reason: z.string().min(3).max(200),
      customerId: z.string().optional().describe("The order's customer; a refund naming another customer is refused"),
    }),
  )
  .meta(
    agentMeta({
      description: "Refund part or all of an order to the customer's original payment method.",
      expose: { aiSdk: true, mcp: true, direct: true },
      sideEffect: "write",
      risk: "high",
      tags: ["orders", "refunds"],
      // `grants`: a manager may let one decision cover a few more refunds, for an hour at most (standing grants).
      approval: { type: "manager", expiresInMs: 24 * 60 * 60 * 1000, grants: { maxUses: 5, maxTtlMs: 60 * 60 * 1000, scopes: ["conversation", "actor"] } },
      // What an approvals page shows a manager: the order and the amount, not free text the model wrote.
      redact: { approvalInput: (input) => ({ orderId: (input as { orderId: string }).orderId, amountCents: (input as { amountCents: number }).amountCents }) },
    }),
  )
  .handler(({ input, context }) => {
    const order = context.store.orders.get(input.orderId);
    if (!order) throw new ORPCError("NOT_FOUND", { message: `No order ${input.orderId}.` });
    // A grant's condition on customerId is only as true as this check: the order decides whose refund it is.
    if (input.customerId !== undefined && input.customerId !== order.customerId) throw new ORPCError("BAD_REQUEST", { message: "The order belongs to another customer." });
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

/** One page of an export: the orders it holds, and where it stands. */
const exportPage = z.object({
  page: z.number().int(),
  pages: z.number().int(),
  orders: z.array(z.object({ id: z.string(), totalCents: z.number().int(), status: z.string(), items: z.array(z.string()) })),
});

/**
 * A long-running export, as a stream: its output is an oRPC event iterator, so it is a streaming capability. Each page
 * reaches the caller as it is produced (preliminary tool results for an AI SDK model, `onEvent` for a direct caller),
 * and the handler reports progress through `context.agent.reportProgress`, which only a caller that asked receives.
 */
export const exportOrders = base
  .input(z.object({ customerId: z.string(), pageSize: z.number().int().min(1).max(100).default(50) }))
  .output(eventIterator(exportPage))
  .meta(
    agentMeta({
      description: "Export a customer's full order history, page by page, with progress.",
      expose: { aiSdk: true, mcp: true, direct: true },
      sideEffect: "read",
      risk: "low",
      tags: ["orders"],
      // Bounds of the stream: a page at least every 5 s, at most 1,000 pages (the whole export stays within timeoutMs).
      stream: { idleTimeoutMs: 5_000, maxEvents: 1_000 },
    }),
  )
  .handler(async function* ({ input, context }) {
    const orders = [...context.store.orders.values()].filter((o) => o.customerId === input.customerId);
    const pages = Math.max(1, Math.ceil(orders.length / input.pageSize));
    for (let page = 1; page <= pages; page++) {
      const chunk = orders.slice((page - 1) * input.pageSize, page * input.pageSize);
      const done = Math.min(page * input.pageSize, orders.length);
      context.agent?.reportProgress({ progress: done, total: orders.length, message: `page ${page} of ${pages}` });
      yield { page, pages, orders: chunk.map(({ id, totalCents, status, items }) => ({ id, totalCents, status, items })) };
    }
  });
