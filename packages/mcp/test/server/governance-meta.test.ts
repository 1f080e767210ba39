// The governance facts each tool carries under `_meta["orpc-agent/governance"]`: `requiresApproval` as before (the
// static gate or this actor's discovery policy), and `approval`, which also says when approval depends on the call
// (a policy that runs on each call, like a refund threshold), so a client never reads `false` as "never".
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, allow, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance, definePolicy, deny, requireApproval, type AgentMeta } from "@orpc-agent/core";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { ERAS, serveApp } from "../support/handler.js";
import { ap } from "../support/orpc.js";

closeEverythingAfterEachTest();

function createPoliciesApp() {
  const meta = (description: string, overrides: Partial<AgentMeta> = {}) =>
    agentMeta({ description, expose: { mcp: true, aiSdk: true }, sideEffect: "write", risk: "high", ...overrides } satisfies AgentMeta);
  const amount = z.object({ amountCents: z.number() });
  const registry = createCapabilityRegistry({
    orders: {
      refund: ap.input(amount).meta(meta("Refund, above a threshold with a manager.")).handler(({ input }) => ({ refunded: input.amountCents })),
      void: ap.input(amount).meta(meta("Void, always with a manager.", { approval: { required: true } })).handler(() => ({ voided: true })),
      export: ap.meta(meta("Export, with approval for some people.")).handler(() => ({ exported: true })),
      list: ap.meta(meta("List orders.", { sideEffect: "read", risk: "low" })).handler(() => []),
      trial: ap.meta(meta("A rule on trial only.", { sideEffect: "read", risk: "low" })).handler(() => ({})),
      chat: ap.meta(meta("Gated only in the chat UI.")).handler(() => ({})),
    },
  });
  const policies = [
    definePolicy("refund-threshold", ({ input }) => ((input as { amountCents: number }).amountCents > 10_000 ? requireApproval({ reason: "large" }) : allow()), {
      scope: { capabilities: { ids: ["orders.refund"] } },
    }),
    definePolicy("exports-for-dana-need-approval", ({ actor }) => (actor.id === "u_dana" ? requireApproval({ reason: "dana" }) : allow()), {
      phases: ["discovery", "invocation"],
      scope: { capabilities: { ids: ["orders.export"] } },
    }),
    definePolicy("chat-only", () => deny("NO", "No."), { scope: { capabilities: { ids: ["orders.chat"] }, surfaces: ["aiSdk"] } }),
  ];
  const shadowPolicies = [definePolicy("trial", () => requireApproval({ reason: "trial" }), { scope: { capabilities: { ids: ["orders.trial"] } } })];
  return {
    runtime: createAgentRuntime<{ tenant: string }>({
      governance: defineGovernance({ registry, policies, shadowPolicies }),
      approvals: { coordinator: createInMemoryApprovalCoordinator() },
    }),
  };
}

describe.each(ERAS)("_meta orpc-agent/governance ($era)", ({ connect }) => {
  it("approval is always, conditional or never; requiresApproval keeps its meaning", async () => {
    const { url } = await serveApp(createPoliciesApp());
    const factsFor = async (token: string) => {
      const { tools } = (await (await connect(url, token)).listTools()) as { tools: { name: string; _meta?: Record<string, { requiresApproval?: boolean; approval?: string }> }[] };
      return Object.fromEntries(tools.map((tool) => [tool.name, tool._meta?.["orpc-agent/governance"]]));
    };
    const dana = await factsFor("tok-dana");
    expect(dana.orders_refund).toEqual({ capabilityId: "orders.refund", risk: "high", sideEffect: "write", requiresApproval: false, approval: "conditional" });
    expect(dana.orders_void).toMatchObject({ requiresApproval: true, approval: "always" });
    // Dana's discovery already demands approval: always, for her.
    expect(dana.orders_export).toMatchObject({ requiresApproval: true, approval: "always" });
    expect(dana.orders_list).toMatchObject({ requiresApproval: false, approval: "never" });
    expect(dana.orders_trial).toMatchObject({ requiresApproval: false, approval: "never" });
    expect(dana.orders_chat).toMatchObject({ requiresApproval: false, approval: "never" });
    // For another actor the same export policy runs on each call: conditional.
    expect((await factsFor("tok-priya")).orders_export).toMatchObject({ requiresApproval: false, approval: "conditional" });
  });

  it("conditional is what the call then does: below the threshold it runs, above it asks for approval", async () => {
    const client = await connect((await serveApp(createPoliciesApp())).url, "tok-dana");
    const small = (await client.callTool({ name: "orders_refund", arguments: { amountCents: 500 } })) as { structuredContent?: { status?: string } };
    const large = (await client.callTool({ name: "orders_refund", arguments: { amountCents: 50_000 } })) as { structuredContent?: { status?: string } };
    expect([small.structuredContent?.status, large.structuredContent?.status]).toEqual(["ok", "approval-required"]);
  });
});
