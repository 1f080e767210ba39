// SI-4 for quorum approvals with confusable ids (issue 30 part 2): an id that differs from another only in letter
// case, Unicode form (composed/decomposed, fullwidth), whitespace or invisible characters names the same person, as
// far as counting approvers goes. An identity provider that matches logins loosely would otherwise let one person
// cast two votes, or approve their own request, or let the acting agent approve what it carried.
import { approvalProgress, createInMemoryApprovalCoordinator, type Actor, type ApprovalCoordinator } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

const ana: Actor = Object.freeze({ id: "ana", kind: "user" });
const user = (id: string): Actor => ({ id, kind: "user" });

// Each a spelling of "mo" a loose login could hand over.
const MO_VARIANTS = ["MO", "Mo", "mo ", " mo", "mo\u200b", "m\u200do", "mo\u00ad", "\uff4d\uff4f", "mo\ufeff"];
// Each a spelling of "dana".
const DANA_VARIANTS = ["DANA", "dana ", "da\u200bna", "\uff44ana"];

function fourEyes(quorum = 2) {
  const ran = { count: 0 };
  const procedure = base
    .meta({ agent: meta({ approval: { required: true, ...(quorum > 1 ? { quorum } : {}) } }) })
    .handler(() => (ran.count++, "done"));
  return { procedure, ran };
}

async function requested(coordinator: ApprovalCoordinator = createInMemoryApprovalCoordinator(), quorum = 2, actor: Actor = dana) {
  const cap = fourEyes(quorum);
  const { runtime, events } = build({ defs: { op: cap.procedure }, approvals: { coordinator } });
  const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor, context: {} }));
  return { runtime, events, cap, coordinator, id: approval.id };
}

describe("confusable approver ids count once (SI-4)", () => {
  it("SI-4: an approver's second vote under a case, width, whitespace or invisible-character variant of their id is refused", async () => {
    const composed = "Jos\u00e9";
    const decomposed = "Jose\u0301";
    for (const [first, second] of [...MO_VARIANTS.map((v) => ["mo", v] as const), [composed, decomposed] as const]) {
      const { runtime, cap, id } = await requested();
      expect((await runtime.approvals.decide(id, { status: "approved", approver: user(first) })).status).toBe("pending");
      await expect(runtime.approvals.decide(id, { status: "approved", approver: user(second) })).rejects.toMatchObject({ code: "APPROVAL_ALREADY_DECIDED" });
      const record = (await runtime.approvals.get(id))!;
      expect(record.status).toBe("pending");
      expect(approvalProgress(record).label).toBe("1 of 2 approvals");
      expect(errorOf(await runtime.resume(id, { context: {} })).code).toBe("APPROVAL_PENDING");
      expect(cap.ran.count).toBe(0);
    }
  });

  it("SI-4: two genuinely different approvers still complete the quorum", async () => {
    const { runtime, cap, id } = await requested();
    await runtime.approvals.decide(id, { status: "approved", approver: mo });
    expect((await runtime.approvals.decide(id, { status: "approved", approver: ana })).status).toBe("approved");
    expect(await runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
    expect(cap.ran.count).toBe(1);
  });

  it("SI-4: the requester under a variant of their id cannot approve, on quorum and single-approver requests", async () => {
    for (const quorum of [2, 1]) {
      for (const variant of DANA_VARIANTS) {
        const { runtime, id } = await requested(createInMemoryApprovalCoordinator(), quorum);
        await expect(runtime.approvals.decide(id, { status: "approved", approver: user(variant) })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
        expect((await runtime.approvals.get(id))!.status).toBe("pending");
      }
    }
  });

  it("SI-4: the acting agent under a variant of its id cannot approve what it carried", async () => {
    const carried: Actor = { ...dana, via: { id: "support-bot" } };
    for (const variant of ["Support-Bot", "support-bot ", "support\u200b-bot"]) {
      const { runtime, id } = await requested(createInMemoryApprovalCoordinator(), 1, carried);
      await expect(runtime.approvals.decide(id, { status: "approved", approver: { id: variant, kind: "service" } })).rejects.toMatchObject({
        code: "APPROVAL_SELF_APPROVAL",
      });
    }
  });

  it("SI-4: votes by variants of one id written straight into the coordinator are refused at resume, unconsumed", async () => {
    for (const variant of MO_VARIANTS) {
      const { runtime, cap, coordinator, id } = await requested();
      // Coordinators compare ids exactly; the runtime must not trust that count.
      await coordinator.decide(id, { status: "approved", approver: mo });
      await coordinator.decide(id, { status: "approved", approver: user(variant) });
      expect((await coordinator.get(id))!.status).toBe("approved");
      expect(errorOf(await runtime.resume(id, { context: {} }))).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
      expect(cap.ran.count).toBe(0);
      expect((await coordinator.get(id))!.status).toBe("approved");
    }
  });

  it("SI-4: a requester's variant vote written straight into the coordinator is a self-approval at resume", async () => {
    for (const quorum of [2, 1]) {
      const { runtime, cap, coordinator, id } = await requested(createInMemoryApprovalCoordinator(), quorum);
      await coordinator.decide(id, { status: "approved", approver: user("DANA") });
      if (quorum > 1) await coordinator.decide(id, { status: "approved", approver: mo });
      expect(errorOf(await runtime.resume(id, { context: {} })).code).toBe("APPROVAL_SELF_APPROVAL");
      expect(cap.ran.count).toBe(0);
    }
  });

  it("SI-4: an inline approval by a variant of the requester's id fails", async () => {
    const ran = { count: 0 };
    const op = base.meta({ agent: meta({ approval: { required: true } }) }).handler(() => (ran.count++, "done"));
    const { runtime } = build({ defs: { op }, approvals: { handler: async () => ({ status: "approved", approver: user("Dana") }) } });
    expect(errorOf(await runtime.invoke("op", {}, { actor: dana, context: {} })).code).toBe("APPROVAL_SELF_APPROVAL");
    expect(ran.count).toBe(0);
  });
});
