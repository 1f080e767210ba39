import type { AgentMeta } from "./types.js";

/**
 * What `agentMeta(...)` returns: to oRPC 1's `.meta()` an object whose only enumerable key is `agent` (1.x merges
 * enumerable keys), to oRPC 2's `.meta()` a meta plugin named `agent` whose `init` stores the same value at
 * `meta.agent`. Either way the registry finds it at `procedure["~orpc"].meta.agent`.
 */
export type AgentMetaDeclaration = {
  readonly agent: AgentMeta;
  readonly name: "agent";
  readonly init: (meta: Record<string, any>) => Record<string, any>;
};

/**
 * Declares a capability in a way both oRPC majors accept: `.meta(agentMeta({ ... }))`. A later declaration
 * replaces an earlier one, as a later `.meta({ agent })` does on oRPC 1.
 *
 * @example
 * import { os } from "@orpc/server";
 * import { agentMeta } from "@orpc-agent/core";
 * import { z } from "zod";
 * declare function refundOrder(orderId: string): Promise<{ refundId: string }>;
 * export const refund = os
 *   .input(z.object({ orderId: z.string() }))
 *   .meta(agentMeta({ description: "Refund an order", expose: { aiSdk: true }, sideEffect: "write", risk: "high" }))
 *   .handler(({ input }) => refundOrder(input.orderId));
 */
export function agentMeta(meta: AgentMeta): AgentMetaDeclaration {
  const declaration = { agent: meta } as AgentMetaDeclaration;
  // Non-enumerable, so oRPC 1's spread-merge copies `agent` only and the stored meta is exactly `{ agent }`.
  Object.defineProperty(declaration, "name", { value: "agent", enumerable: false });
  Object.defineProperty(declaration, "init", {
    value: (current: Record<string, any>) => ({ ...current, agent: meta }),
    enumerable: false,
  });
  return Object.freeze(declaration);
}
