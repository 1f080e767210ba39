import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  requireApproval,
  type Actor,
  type AgentAuditEvent,
  type AgentInvocationInfo,
} from "../../src/index.js";

// The approval lifecycle end to end (docs/architecture/spec/core.md#core-7, docs/architecture/spec/core.md#core-10, SI-4, SI-5): request, refused self-approval, manager approval,
// one resumed execution as the requester, and no second use.

const requester: Actor = { id: "user_dana", kind: "user", displayName: "Dana" };
const manager: Actor = { id: "user_priya", kind: "user", displayName: "Priya" };

describe("refund over the limit", () => {
  const refunds: { input: { orderId: string; amount: number }; agent: AgentInvocationInfo }[] = [];
  const events: AgentAuditEvent[] = [];
  const registry = createCapabilityRegistry({
    orders: {
      refund: agentProcedure(os)
        .input(z.object({ orderId: z.string(), amount: z.number().positive() }))
        .meta(agentMeta({ description: "Refund part or all of an order.", expose: { aiSdk: true }, sideEffect: "write", risk: "high" }))
        .handler(({ input, context }) => {
          refunds.push({ input, agent: context.agent! });
          return { refundId: `rf_${refunds.length}`, amount: input.amount };
        }),
    },
  });
  const refundLimit = definePolicy(
    "refund-limit",
    (req) => ((req.input as { amount: number }).amount > 100 ? requireApproval({ reason: "Refunds over 100 need a manager.", approvalType: "manager" }) : allow()),
    { scope: { capabilities: { ids: ["orders.refund"] } } },
  );
  const coordinator = createInMemoryApprovalCoordinator();
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry, policies: [refundLimit] }),
    approvals: { coordinator },
    audit: (event) => void events.push(event),
  });
  const agentCall = (amount: number) => runtime.invoke("orders.refund", { orderId: "o-77", amount }, { actor: requester, context: {}, surface: "aiSdk" });

  it("a refund within the limit completes at once", async () => {
    refunds.length = 0;
    expect(await agentCall(40)).toMatchObject({ status: "completed", output: { amount: 40 } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.agent.approval).toBeUndefined();
  });

  it("SI-4, SI-5: a refund over the limit waits for a manager, refuses the requester's own approval, then runs exactly once as the requester", async () => {
    refunds.length = 0;
    const mark = events.length;

    // 1. The agent asks for 250: the policy requires a manager.
    const asked = await agentCall(250);
    expect(asked.status).toBe("approval-required");
    if (asked.status !== "approval-required") return;
    const approval = asked.approval;
    expect(approval).toMatchObject({ status: "pending", actor: requester, reasons: ["Refunds over 100 need a manager."], types: ["manager"] });
    expect(refunds).toEqual([]);

    // 2. The requester tries to approve their own refund: refused, still pending for someone else.
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: requester })).rejects.toMatchObject({
      code: "APPROVAL_SELF_APPROVAL",
    });
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");

    // 3. The manager approves; resuming runs the refund once, as the requester, with the manager as approver.
    await runtime.approvals.decide(approval.id, { status: "approved", approver: manager, comment: "Customer is right." });
    const done = await runtime.resume(approval.id, { context: {}, expectedActor: requester, expectedSurface: "aiSdk" });
    expect(done).toMatchObject({ status: "completed", output: { refundId: "rf_1", amount: 250 } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.input).toStrictEqual({ orderId: "o-77", amount: 250 });
    expect(refunds[0]!.agent.actor).toStrictEqual(requester);
    expect(refunds[0]!.agent.approval).toStrictEqual({ id: approval.id, approver: manager });

    // 4. The approval is spent.
    const again = await runtime.resume(approval.id, { context: {}, expectedActor: requester, expectedSurface: "aiSdk" });
    expect(again.status === "failed" && again.error.code).toBe("APPROVAL_CONSUMED");
    expect(refunds).toHaveLength(1);

    // The evidence tells the same story: the manager is the actor of the decision only; the refused try left none.
    expect(events.slice(mark).map((e) => [e.type, e.actor.id])).toEqual([
      ["capability.requested", "user_dana"],
      ["capability.approval_requested", "user_dana"],
      ["capability.approved", "user_priya"],
      ["capability.started", "user_dana"],
      ["capability.completed", "user_dana"],
      ["capability.failed", "user_dana"],
    ]);
  });
});
