// SI-5: an execution-phase requireApproval({ approvalType }) is satisfied only by an approval of that type (issue 22, finding 5).
import { allow, createInMemoryApprovalCoordinator, definePolicy, requireApproval, type ApprovalRequest } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta } from "./support/runtime.js";

const supportManager = { id: "sam", kind: "user" as const };
const cfo = { id: "carla", kind: "user" as const };
const CFO_REASON = "Refunds over 10 000 need the CFO.";

function refundApp(coordinatorOrHandler: { coordinator?: ReturnType<typeof createInMemoryApprovalCoordinator>; handler?: (r: ApprovalRequest) => Promise<{ status: "approved" | "rejected"; approver: typeof cfo } | undefined> }) {
  const ran: unknown[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, type: "human-confirmation" } }) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input, context }) => {
      ran.push({ amount: input.amount, approver: context.agent?.approval?.approver.id });
      return "refunded";
    });
  const overLimit = definePolicy(
    "cfo-over-10k",
    (req) => ((req.input as { amount: number }).amount > 10_000 ? requireApproval({ reason: CFO_REASON, approvalType: "cfo" }) : allow()),
    { phases: ["execution"] },
  );
  const { runtime } = build({ defs: { refund }, policies: [overLimit], approvals: coordinatorOrHandler });
  return { runtime, ran };
}

describe("execution-phase approval types (SI-5)", () => {
  it("SI-5: an inline human-confirmation approval does not satisfy an execution-phase demand for a cfo approval", async () => {
    const requests: ApprovalRequest[] = [];
    const { runtime, ran } = refundApp({
      handler: async (req) => {
        requests.push(req);
        return { status: "approved", approver: req.types.includes("cfo") ? cfo : supportManager };
      },
    });
    const result = await runtime.invoke("refund", { amount: 20_000 }, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    // The second request lists every demanded type and reason.
    expect(requests.map((r) => r.types)).toEqual([["human-confirmation"], ["human-confirmation", "cfo"]]);
    expect(requests[1]!.reasons).toContain(CFO_REASON);
    expect(ran).toEqual([{ amount: 20_000, approver: "carla" }]);
  });

  it("SI-5: when the cfo request is rejected inline, the handler never runs", async () => {
    const { runtime, ran } = refundApp({
      handler: async (req) => ({ status: req.types.includes("cfo") ? "rejected" : "approved", approver: supportManager }),
    });
    const result = await runtime.invoke("refund", { amount: 20_000 }, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_REJECTED");
    expect(ran).toEqual([]);
  });

  it("SI-5: a support manager's approval of the human-confirmation request suspends again, on resume, for the cfo", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime, ran } = refundApp({ coordinator });
    const first = approvalOf(await runtime.invoke("refund", { amount: 20_000 }, { actor: dana, context: {} }));
    expect(first.types).toEqual(["human-confirmation"]);
    await coordinator.decide(first.id, { status: "approved", approver: supportManager });

    const second = approvalOf(await runtime.resume(first.id, { context: {} }));
    expect(ran).toEqual([]);
    expect(second.id).not.toBe(first.id);
    expect(second.types).toEqual(["human-confirmation", "cfo"]);
    expect(second.reasons).toContain(CFO_REASON);
    expect(second.inputHash).toBe(first.inputHash);

    await coordinator.decide(second.id, { status: "approved", approver: cfo });
    const done = await runtime.resume(second.id, { context: {} });
    expect(done.status).toBe("completed");
    expect(ran).toEqual([{ amount: 20_000, approver: "carla" }]);
  });

  it("SI-5: below the limit, the human-confirmation approval alone suffices", async () => {
    const requests: ApprovalRequest[] = [];
    const { runtime, ran } = refundApp({ handler: async (req) => (requests.push(req), { status: "approved", approver: supportManager }) });
    expect((await runtime.invoke("refund", { amount: 50 }, { actor: dana, context: {} })).status).toBe("completed");
    expect(requests).toHaveLength(1);
    expect(ran).toEqual([{ amount: 50, approver: "sam" }]);
  });
});

describe("a static gate whose type changed since the request (SI-5)", () => {
  it("SI-5: an approval of the old gate type does not cover the new one on resume; nothing runs", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const ran: unknown[] = [];
    const gated = (type: string) =>
      base
        .meta({ agent: meta({ approval: { required: true, type } }) })
        .input(z.object({ cents: z.number() }))
        .handler(({ input }) => (ran.push(input), "refunded"));
    const before = build({ defs: { refund: gated("manager") }, approvals: { coordinator } });
    const approval = approvalOf(await before.runtime.invoke("refund", { cents: 5 }, { actor: dana, context: {} }));
    expect(approval.types).toEqual(["manager"]);
    await coordinator.decide(approval.id, { status: "approved", approver: supportManager });
    const after = build({ defs: { refund: gated("security") }, approvals: { coordinator } });
    const result = await after.runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("POLICY_DENIED");
    expect(ran).toEqual([]);
    expect((await coordinator.get(approval.id))!.status).toBe("approved");
  });
});
