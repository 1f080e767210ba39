// SI-4 (no self-approval) for quorum approvals (issue 30 part 2): a quorum counts distinct approvers by id, never the
// requester, whatever path the votes take; resume re-checks what a coordinator claims. Attacks first, then the flow.
import {
  approvalProgress,
  createInMemoryApprovalCoordinator,
  definePolicy,
  requireApproval,
  type Actor,
  type ApprovalCoordinator,
  type ApprovalRecord,
} from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

const ana: Actor = Object.freeze({ id: "ana", kind: "user" });
const SENTINEL = "sentinel-quorum-7c1";

function fourEyes(extra: { type?: string } = {}) {
  const ran = { count: 0 };
  const procedure = base
    .meta({ agent: meta({ approval: { required: true, quorum: 2, ...extra } }) })
    .handler(({ input }) => (ran.count++, { done: input }));
  return { procedure, ran };
}

/** A coordinator that reports what `doctor` makes of the stored record: a custom or compromised store. */
function doctored(store: ApprovalCoordinator, doctor: (record: ApprovalRecord) => ApprovalRecord): ApprovalCoordinator {
  return { ...store, get: async (id) => {
    const record = await store.get(id);
    return record && doctor(record);
  } };
}

describe("quorum approvals (SI-4)", () => {
  it("SI-4: the same approver approving twice, under another kind or comment, is refused and counts once", async () => {
    const cap = fourEyes();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
    expect(approval.quorum).toBe(2);

    const first = await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect(first.status).toBe("pending");
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: mo })).rejects.toMatchObject({ code: "APPROVAL_ALREADY_DECIDED" });
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "mo", kind: "service" }, comment: "me again" })).rejects.toMatchObject({
      code: "APPROVAL_ALREADY_DECIDED",
    });
    const record = (await runtime.approvals.get(approval.id))!;
    expect(record.status).toBe("pending");
    expect(approvalProgress(record).label).toBe("1 of 2 approvals");
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_PENDING");
    expect(cap.ran.count).toBe(0);

    expect((await runtime.approvals.decide(approval.id, { status: "approved", approver: ana })).status).toBe("approved");
    expect((await runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_CONSUMED");
    expect(cap.ran.count).toBe(1);
  });

  it("SI-4: the requester cannot count, even with rejectSelfApproval: false or a requester-confirmable type", async () => {
    for (const approvals of [{}, { rejectSelfApproval: false }, { requesterConfirmable: ["confirmation"] }]) {
      const cap = fourEyes({ type: "confirmation" });
      const { runtime, events } = build({ defs: { op: cap.procedure }, approvals: { coordinator: createInMemoryApprovalCoordinator(), ...approvals } });
      const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
      await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: dana })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
      await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
      await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: { ...dana, displayName: "Dana again" } })).rejects.toMatchObject({
        code: "APPROVAL_SELF_APPROVAL",
      });
      const record = (await runtime.approvals.get(approval.id))!;
      expect(record.status).toBe("pending");
      expect(record.approvals!.map((vote) => vote.approver.id)).toEqual(["mo"]);
      expect(events.filter((e) => e.type === "capability.approval_recorded" || e.type === "capability.approved").map((e) => e.actor.id)).toEqual(["mo"]);
      expect(cap.ran.count).toBe(0);
    }
  });

  it("SI-4: a requester's vote written directly through the coordinator is refused at resume and the record stays approved", async () => {
    const store = createInMemoryApprovalCoordinator();
    const cap = fourEyes();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator: store } });
    const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
    // Bypassing runtime.approvals: coordinators never check self-approval (docs/architecture/spec/core.md#core-10).
    await store.decide(approval.id, { status: "approved", approver: dana });
    await store.decide(approval.id, { status: "approved", approver: mo });
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_SELF_APPROVAL");
    expect(cap.ran.count).toBe(0);
    expect((await store.get(approval.id))!.status).toBe("approved");
  });

  it("SI-4: a coordinator that reports approved with a repeated, missing or anonymous vote is refused at resume, unconsumed", async () => {
    const doctors: ((r: ApprovalRecord) => ApprovalRecord)[] = [
      (r) => ({ ...r, approvals: [r.approvals![0]!, { ...r.approvals![0]!, approver: { ...r.approvals![0]!.approver, kind: "service" } }] }),
      (r) => ({ ...r, approvals: r.approvals!.slice(1) }),
      (r) => {
        const { approvals: _dropped, ...rest } = r;
        return rest;
      },
      (r) => ({ ...r, approvals: [{ ...r.approvals![0]!, approver: { id: "ghost", kind: "anonymous" } }, r.approvals![1]!] }),
      (r) => ({ ...r, approvals: "mo,ana" as unknown as ApprovalRecord["approvals"] }),
    ];
    for (const doctor of doctors) {
      const store = createInMemoryApprovalCoordinator();
      const cap = fourEyes();
      const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator: store } });
      const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
      await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
      await runtime.approvals.decide(approval.id, { status: "approved", approver: ana });
      const lax = build({ defs: { op: cap.procedure }, approvals: { coordinator: doctored(store, doctor) } });
      expect(errorOf(await lax.runtime.resume(approval.id, { context: {} }))).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
      expect(cap.ran.count).toBe(0);
      expect((await store.get(approval.id))!.status).toBe("approved");
    }
  });

  it("SI-4: a coordinator that drops the quorum from the record does not lower what the capability demands (resume refuses, unconsumed)", async () => {
    const store = createInMemoryApprovalCoordinator();
    const cap = fourEyes();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator: store } });
    const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    // The store forgets the quorum and reports one approver's decision as final.
    const forgetful = doctored(store, (r) => {
      const { quorum: _q, approvals: _a, ...rest } = r;
      return { ...rest, status: "approved", decision: { status: "approved", approver: mo, decidedAt: new Date() } };
    });
    const lax = build({ defs: { op: cap.procedure }, approvals: { coordinator: forgetful } });
    expect(errorOf(await lax.runtime.resume(approval.id, { context: {} })).code).toBe("POLICY_DENIED");
    expect(cap.ran.count).toBe(0);
    expect((await store.get(approval.id))!.status).toBe("pending");
  });

  it("SI-4: an inline handler answers for one person, so a quorum request is stored instead of decided inline", async () => {
    const cap = fourEyes();
    let asked = 0;
    const { runtime } = build({
      defs: { op: cap.procedure },
      approvals: { coordinator: createInMemoryApprovalCoordinator(), handler: async () => (asked++, { status: "approved", approver: mo }) },
    });
    const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
    expect(asked).toBe(0);
    expect(cap.ran.count).toBe(0);
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");
  });

  it("SI-4: an old approval never covers an escalated quorum: a policy demanding 3 at resume denies a 2-approver record, unconsumed", async () => {
    const store = createInMemoryApprovalCoordinator();
    const cap = fourEyes();
    const escalate = { on: false };
    const policies = [
      definePolicy("big-wires-need-three", () =>
        escalate.on ? requireApproval({ reason: "Three approvers from now on.", quorum: 3 }) : { type: "allow" as const },
      ),
    ];
    const { runtime } = build({ defs: { op: cap.procedure }, policies, approvals: { coordinator: store } });
    const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    await runtime.approvals.decide(approval.id, { status: "approved", approver: ana });
    escalate.on = true;
    const denied = errorOf(await runtime.resume(approval.id, { context: {} }));
    expect(denied.code).toBe("POLICY_DENIED");
    expect(cap.ran.count).toBe(0);
    expect((await store.get(approval.id))!.status).toBe("approved");

    // A fresh request takes the largest quorum demanded of it.
    expect(approvalOf(await runtime.invoke("op", { n: 2 }, { actor: dana, context: {} })).quorum).toBe(3);
  });

  it("SI-4: expiry applies to the whole request: one approval, then the deadline passes — no second vote, resume expired", async () => {
    let now = Date.parse("2030-01-01T00:00:00.000Z");
    const clock = () => new Date(now);
    const cap = fourEyes();
    const { runtime } = build({ defs: { op: cap.procedure }, now: clock, approvals: { coordinator: createInMemoryApprovalCoordinator({ now: clock }) } });
    const approval = approvalOf(await runtime.invoke("op", { n: 1 }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    now = approval.expiresAt.getTime() + 1;
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: ana })).rejects.toMatchObject({ code: "APPROVAL_EXPIRED" });
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_EXPIRED");
    expect(cap.ran.count).toBe(0);
  });

  it("SI-4: one rejection rejects a partly approved request, and every decision is audited without the input (SI-10)", async () => {
    const cap = fourEyes();
    const { runtime, events } = build({ defs: { op: cap.procedure }, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    const approval = approvalOf(await runtime.invoke("op", { secret: SENTINEL }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo, comment: "fine by me" });
    await runtime.approvals.decide(approval.id, { status: "rejected", approver: ana, comment: "not this one" });
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_REJECTED");
    expect(cap.ran.count).toBe(0);

    const requested = events.find((e) => e.type === "capability.approval_requested")!;
    expect(requested.data).toMatchObject({ approvalId: approval.id, quorum: 2 });
    const decisions = events.filter((e) => e.type === "capability.approval_recorded" || e.type === "capability.rejected");
    expect(decisions.map((e) => [e.type, e.actor.id, e.data])).toEqual([
      ["capability.approval_recorded", "mo", { approvalId: approval.id, approver: { id: "mo", kind: "user" }, comment: "fine by me", approvalCount: 1, quorum: 2 }],
      ["capability.rejected", "ana", { approvalId: approval.id, approver: { id: "ana", kind: "user" }, comment: "not this one", approvalCount: 1, quorum: 2 }],
    ]);
    expect(JSON.stringify(events)).not.toContain(SENTINEL);
  });
});
