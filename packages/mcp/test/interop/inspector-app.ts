// The app the MCP Inspector CLI drives: one tool per outcome it must see (ok, approval required, denied, invalid
// input) and one tool hidden from everyone but the admin, so two actors list different catalogs.
import { z } from "zod";
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  hide,
  type AgentMeta,
  type AgentRuntime,
} from "@orpc-agent/core";
import { admin } from "../support/app.js";
import { ap } from "../support/orpc.js";

const meta = (description: string, overrides: Partial<AgentMeta> = {}) =>
  agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low", ...overrides } satisfies AgentMeta);

export function createInspectorApp(): { runtime: AgentRuntime<{ tenant: string }> } {
  const registry = createCapabilityRegistry({
    notes: {
      whoami: ap.meta(meta("Report the executing actor and tenant.")).handler(({ context }) => ({
        actor: context.agent?.actor.id,
        tenant: (context as { tenant?: string }).tenant,
      })),
      count: ap
        .input(z.object({ n: z.number() }))
        .meta(meta("Count to n."))
        .handler(({ input }) => ({ counted: input.n })),
    },
    orders: {
      refund: ap
        .input(z.object({ orderId: z.string(), amount: z.number() }))
        .meta(meta("Refund an order.", { sideEffect: "write", risk: "high", idempotent: true, approval: { required: true } }))
        .handler(({ input }) => ({ refunded: input.amount })),
    },
    accounts: {
      close: ap.meta(meta("Close the account.", { sideEffect: "destructive", risk: "high" })).handler(() => ({ closed: true })),
    },
    admin: {
      purge: ap.meta(meta("Purge everything.", { sideEffect: "destructive", risk: "critical" })).handler(() => ({ purged: true })),
    },
  });
  const policies = [
    definePolicy("admins-only", (req) => (req.actor.id === admin.id ? allow() : hide()), {
      phases: ["discovery", "invocation"],
      scope: { capabilities: { ids: ["admin.purge"] } },
    }),
    definePolicy("no-closures", () => deny("NO_CLOSURES", "Ask a person to close accounts."), {
      phases: ["invocation"],
      scope: { capabilities: { ids: ["accounts.close"] } },
    }),
  ];
  return {
    runtime: createAgentRuntime<{ tenant: string }>({
      governance: defineGovernance({ registry, policies }),
      approvals: { coordinator: createInMemoryApprovalCoordinator() },
      audit: () => {}, // nothing here reads the trail; the Inspector sees only the answers
    }),
  };
}
