import type { AgentMeta, PolicyRequest } from "../../src/capability/types.js";

/** The capability the policy tests judge: a high-risk finance write exposed on MCP. */
export const refundMeta: AgentMeta = { description: "Refund", expose: { mcp: true }, sideEffect: "write", risk: "high", tags: ["finance"] };

/** An invocation-phase request for `orders.refund` by u1 on MCP, with `overrides` applied. */
export function refundRequest(overrides: Partial<PolicyRequest> = {}): PolicyRequest {
  return {
    phase: "invocation",
    capability: { id: "orders.refund", meta: refundMeta },
    surface: "mcp",
    actor: { id: "u1", kind: "user" },
    context: {},
    input: { amount: 10 },
    ...overrides,
  };
}
