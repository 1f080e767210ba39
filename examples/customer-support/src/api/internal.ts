import { z } from "zod";
import { agentMeta } from "@orpc-agent/core";
import { base } from "./base.js";

/** An operations tool: visible only to staff with the admin role, concealed from everyone else. */
export const recomputeLoyalty = base
  .input(z.object({ customerId: z.string() }))
  .meta(
    agentMeta({
      description: "Recompute a customer's loyalty tier from their order history.",
      expose: { mcp: true, direct: true },
      sideEffect: "write",
      risk: "medium",
      idempotent: true,
      tags: ["internal"],
    }),
  )
  .handler(({ input, context }) => {
    const total = [...context.store.orders.values()].filter((o) => o.customerId === input.customerId).reduce((s, o) => s + o.totalCents, 0);
    const customer = context.store.customers.get(input.customerId);
    if (customer) customer.tier = total > 20_000 ? "gold" : "standard";
    return { customerId: input.customerId, tier: customer?.tier ?? "standard" };
  });

/** The app's own health endpoint: an ordinary procedure with no agent metadata, so no agent can ever reach it. */
export const health = base.handler(() => ({ ok: true }));
