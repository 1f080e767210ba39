// Compiled, never run: what an oRPC 2 app writes (docs/guides/orpc-2.md) type-checks against oRPC 2's declarations.
import { os } from "@orpc/server";
import { z } from "zod";
import { agentMeta, agentProcedure, createCapabilityRegistry, type AgentInvocationInfo } from "@orpc-agent/core";

export const refund = os
  .input(z.object({ orderId: z.string(), amount: z.number().positive() }))
  .meta(agentMeta({ description: "Refund an order.", expose: { aiSdk: true, mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
  .handler(({ input }) => ({ refunded: input.amount }));

// On 2.x agentProcedure returns the builder's own type; context.agent comes from $context.
const ap = agentProcedure(os.$context<{ tenant: string; agent?: AgentInvocationInfo }>());
export const lookup = ap
  .input(z.object({ id: z.string() }))
  .meta(agentMeta({ description: "Look up an order.", expose: { mcp: true }, sideEffect: "read", risk: "low" }))
  .handler(({ input, context }) => ({ id: input.id, tenant: context.tenant, who: context.agent?.actor.id }));

// @ts-expect-error agentMeta checks its argument against AgentMeta: "extreme" is no risk level.
agentMeta({ description: "x", expose: {}, sideEffect: "read", risk: "extreme" });

export const registry = createCapabilityRegistry({ orders: { refund, lookup } });
