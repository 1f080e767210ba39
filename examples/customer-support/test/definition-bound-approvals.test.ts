// Issue 29, definition-bound approvals on the example's own governance: an approval asked for under one governance
// is voided when the governance widens before resume (here: the refund-threshold policy that sent the refund to a
// manager is removed), and survives an edit that widens nothing (a description change).
import { Procedure, type AnyProcedure } from "@orpc/server";
import { createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance, type AgentGovernance, type CapabilityDefs } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import type { AppContext } from "../src/api/context.js";
import { router } from "../src/api/router.js";
import { governance } from "../src/agent/governance.js";
import { dana, priya } from "../src/agent/people.js";
import { createStore } from "../src/domain/store.js";

const seal = { keys: [{ id: "test", secret: "a-test-only-seal-secret-of-32-bytes-or-more" }] };
const largeRefund = { orderId: "o_1002", amountCents: 20_000, reason: "Keyboard arrived broken" };

function runtimeOver(g: AgentGovernance, coordinator: ReturnType<typeof createInMemoryApprovalCoordinator>) {
  return createAgentRuntime<AppContext>({ governance: g, approvals: { coordinator, seal }, audit: () => {} });
}

/** The example's router with orders.refund's agent metadata changed by `edit`. */
function withRefundMeta(edit: (agent: Record<string, unknown>) => Record<string, unknown>): AgentGovernance {
  const refund = router.orders.refund as unknown as AnyProcedure;
  const def = refund["~orpc"];
  const meta = def.meta as { agent: Record<string, unknown> };
  const edited = new Procedure({ ...def, meta: { ...meta, agent: edit(meta.agent) } });
  const defs = { ...router, orders: { ...router.orders, refund: edited } } as unknown as CapabilityDefs;
  return defineGovernance({ registry: createCapabilityRegistry(defs), policies: governance.policies, shadowPolicies: governance.shadowPolicies ?? [] });
}

async function requestThenChange(changed: AgentGovernance) {
  const store = createStore();
  const coordinator = createInMemoryApprovalCoordinator();
  const before = runtimeOver(governance, coordinator);
  const context: AppContext = { store, user: { id: dana.id, role: "support" } };
  const asked = await before.invoke("orders.refund", largeRefund, { actor: dana, context, surface: "aiSdk" });
  if (asked.status !== "approval-required") throw new Error(`expected approval-required, got ${asked.status}`);
  const after = runtimeOver(changed, coordinator);
  await after.approvals.decide(asked.approval.id, { status: "approved", approver: priya });
  const resumed = await after.resume(asked.approval.id, { context, expectedActor: dana, expectedSurface: "aiSdk" });
  return { resumed, store, record: await coordinator.get(asked.approval.id) };
}

describe("approvals bound to the governance they were asked under (issue 29)", () => {
  it("a widening edit (the refund-threshold policy removed) voids the approval: refused, nothing refunded, not consumed", async () => {
    const widened = defineGovernance({
      registry: governance.registry,
      policies: governance.policies.filter((policy) => policy.name !== "refund-threshold"),
      shadowPolicies: governance.shadowPolicies ?? [],
    });
    const { resumed, store, record } = await requestThenChange(widened);
    // As the model would read it: the envelope's JSON.
    expect(JSON.parse(JSON.stringify(resumed))).toMatchObject({
      status: "failed",
      error: { code: "POLICY_DENIED", message: "This operation's governance changed since the approval was requested; request the operation again." },
    });
    expect(store.refunds).toEqual([]);
    expect(record!.status).toBe("approved");
  });

  it("a lowered risk is widening too", async () => {
    const { resumed, store } = await requestThenChange(withRefundMeta((agent) => ({ ...agent, risk: "low" })));
    expect(resumed).toMatchObject({ status: "failed", error: { code: "POLICY_DENIED" } });
    expect(store.refunds).toEqual([]);
  });

  it("a description change widens nothing: the approved refund runs once", async () => {
    const { resumed, store } = await requestThenChange(withRefundMeta((agent) => ({ ...agent, description: "Refund an order (reworded)." })));
    expect(resumed.status).toBe("completed");
    expect(store.refunds).toHaveLength(1);
  });

  it("a narrowing edit (risk raised to critical) keeps the approval valid", async () => {
    const { resumed, store } = await requestThenChange(withRefundMeta((agent) => ({ ...agent, risk: "critical" })));
    expect(resumed.status).toBe("completed");
    expect(store.refunds).toHaveLength(1);
  });
});
