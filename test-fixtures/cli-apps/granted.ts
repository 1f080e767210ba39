// A capability opted into standing grants (SI-13): `check` classifies its caps, `inspect` shows them.
import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, createCapabilityRegistry } from "@orpc-agent/core";

const ap = agentProcedure(os);

const refund = ap
  .input(z.object({ customerId: z.string(), amount: z.number() }))
  .meta({
    agent: {
      description: "Refund a customer.",
      expose: { aiSdk: true, direct: true },
      sideEffect: "write",
      risk: "high",
      approval: { required: true, type: "manager", grants: { maxUses: 10, maxTtlMs: 3_600_000, scopes: ["conversation", "actor"] } },
    },
  })
  .handler(({ input }) => ({ refunded: input.amount }));

export const registry = createCapabilityRegistry({ refund });
