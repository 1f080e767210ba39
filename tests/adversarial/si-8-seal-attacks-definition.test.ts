// Issue 29, attacker's view, part 3: governance widened between request and resume by a path the classification
// might miss. Each widening must void the approval at resume (POLICY_DENIED, unconsumed, handler not run).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createInMemoryApprovalCoordinator, type Actor, type AgentMeta, type AgentPolicy } from "@orpc-agent/core";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

const K1 = { id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" };
const ann: Actor = Object.freeze({ id: "ann", kind: "user" });

/** A policy that demands an approval of the capability's type: the gate lives in policy, the quorum in metadata. */
const demand: AgentPolicy = {
  name: "refunds-need-approval",
  phases: ["invocation"],
  evaluate: () => ({ type: "require-approval", reason: "refund", approvalType: "manager" }),
};

function runtimeWith(coordinator: ReturnType<typeof createInMemoryApprovalCoordinator>, overrides: Partial<AgentMeta>) {
  const ran: number[] = [];
  const refund = base
    .meta({ agent: meta(overrides) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input }) => (ran.push(input.amount), "refunded"));
  const { runtime } = build({ defs: { refund }, policies: [demand], approvals: { coordinator, seal: { keys: [K1] } } });
  return { runtime, ran };
}

describe("widenings between request and resume (issue 29)", () => {
  it("SI-8: a policy-gated quorum of 2 whose approval metadata is removed (fewer approvers) voids the approval", async () => {
    const store = createInMemoryApprovalCoordinator();
    const before = runtimeWith(store, { approval: { quorum: 2 } });
    const approval = approvalOf(await before.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: ann });
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    const after = runtimeWith(store, {});
    const result = await after.runtime.resume(approval.id, { context: {} });
    expect(result.status).toBe("failed");
    expect(errorOf(result).code).toBe("POLICY_DENIED");
    expect(String(errorOf(result).cause)).toMatch(/approval quorum 2 → 1/);
    expect(after.ran).toEqual([]);
    expect((await store.get(approval.id))!.status).toBe("approved");
  });

  it("SI-8: the same approval resumes when only the description changed", async () => {
    const store = createInMemoryApprovalCoordinator();
    const before = runtimeWith(store, { approval: { quorum: 2 } });
    const approval = approvalOf(await before.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: ann });
    await before.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    const after = runtimeWith(store, { approval: { quorum: 2 }, description: "Reworded for the model." });
    expect((await after.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(after.ran).toEqual([5]);
  });
});
