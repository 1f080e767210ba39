// A plain registry: a gated write, a read, and a procedure without agent metadata.
import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, createCapabilityRegistry } from "@orpc-agent/core";

const ap = agentProcedure(os);

const refund = ap
  .input(z.object({ orderId: z.string(), amountCents: z.number().int() }))
  .meta({
    agent: {
      description: "Refund an order.",
      expose: { aiSdk: true, direct: true, mcp: false },
      sideEffect: "write",
      risk: "high",
      tags: ["orders", "finance"],
      approval: { required: true, type: "finance" },
    },
  })
  .handler(() => ({ refunded: true }));

const get = ap
  .input(z.object({ orderId: z.string() }))
  .meta({
    agent: {
      description: "Read an order.",
      expose: { aiSdk: true, mcp: true },
      sideEffect: "read",
      risk: "low",
      tags: ["orders"],
    },
  })
  .handler(() => ({ id: "o_1" }));

const ping = os.handler(() => "pong");

export const registry = createCapabilityRegistry({ orders: { refund, get }, health: { ping } });
