// SI-4: an approver of kind "anonymous" is refused, inline, by the coordinator and on resume (issue 22, item 8), and
// on every path that decides, typed: runtime.approvals.decide and quorum votes on the in-memory and the PostgreSQL
// store, and the PostgreSQL coordinator itself (issue 43).
import { CapabilityError, createInMemoryApprovalCoordinator, type ApprovalCoordinator, type ApprovalDecision } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { approvalStores, clockAt } from "./support/approval-stores.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

const stores = approvalStores("orpc_adv_anonymous");

const nobody = { id: "someone", kind: "anonymous" as const };

function gated() {
  const ran = { count: 0 };
  const procedure = base.meta({ agent: meta({ approval: { required: true } }) }).handler(() => (ran.count++, "done"));
  return { procedure, ran };
}

describe("anonymous approvers (SI-4)", () => {
  it("SI-4: an inline decision by an anonymous approver is refused and the handler never runs", async () => {
    const cap = gated();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { handler: async () => ({ status: "approved", approver: nobody }) } });
    const result = await runtime.invoke("op", {}, { actor: dana, context: {} });
    expect(errorOf(result)).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(cap.ran.count).toBe(0);
  });

  it("SI-4: the in-memory coordinator refuses a decision by an anonymous approver", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const cap = gated();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("op", {}, { actor: dana, context: {} }));
    await expect(coordinator.decide(approval.id, { status: "approved", approver: nobody })).rejects.toMatchObject({ code: "UNAUTHENTICATED", stage: "approval" });
    expect((await coordinator.get(approval.id))!.status).toBe("pending");
  });

  it("SI-4: resume refuses a record approved by an anonymous approver (a custom coordinator) and does not consume it", async () => {
    const store = createInMemoryApprovalCoordinator();
    const cap = gated();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator: store } });
    const approval = approvalOf(await runtime.invoke("op", {}, { actor: dana, context: {} }));
    await store.decide(approval.id, { status: "approved", approver: { id: "mo", kind: "user" } });
    const lax: ApprovalCoordinator = {
      ...store,
      get: async (id) => {
        const r = await store.get(id);
        return r && { ...r, decision: { ...r.decision!, approver: nobody } };
      },
    };
    const second = gated();
    const resumed = build({ defs: { op: second.procedure }, approvals: { coordinator: lax } });
    const result = await resumed.runtime.resume(approval.id, { context: {} });
    expect(errorOf(result)).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(second.ran.count).toBe(0);
    expect((await store.get(approval.id))!.status).toBe("approved");
  });
});

for (const store of stores) {
  describe(`anonymous approvers on every deciding path, ${store.name} store (SI-4)`, () => {
    function app() {
      const clock = clockAt();
      const { coordinator } = store.open(clock);
      const ran = { count: 0 };
      const gated = (approval: Record<string, unknown>) =>
        base.meta({ agent: meta({ approval: { required: true, ...approval } }) }).handler(() => (ran.count++, "done"));
      const { runtime, events } = build({ defs: { op: gated({}), pair: gated({ quorum: 2 }) }, approvals: { coordinator, seal: false }, now: () => clock.now() });
      const request = async (id: string) => approvalOf(await runtime.invoke(id, {}, { actor: dana, context: {} })).id;
      const decisions = () => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected" || e.type === "capability.approval_recorded");
      return { runtime, coordinator, ran, request, decisions };
    }
    const anonymousDecisions: ApprovalDecision[] = [
      { status: "approved", approver: nobody },
      { status: "rejected", approver: nobody },
      { status: "approved", approver: { ...nobody, via: { id: "some-agent" } } },
    ];

    it(`SI-4: ${store.name}: runtime.approvals.decide refuses an anonymous approver with UNAUTHENTICATED, single or quorum vote; nothing is recorded`, async () => {
      const a = app();
      const single = await a.request("op");
      const quorum = await a.request("pair");
      await a.runtime.approvals.decide(quorum, { status: "approved", approver: mo });
      for (const id of [single, quorum]) {
        for (const decision of anonymousDecisions) {
          const error = await a.runtime.approvals.decide(id, decision).then(() => undefined, (e: unknown) => e);
          expect(CapabilityError.isInstance(error), "the anonymous decision was accepted").toBe(true);
          expect(error).toMatchObject({ code: "UNAUTHENTICATED", stage: "approval" });
        }
      }
      expect((await a.coordinator.get(single))!.status).toBe("pending");
      expect((await a.coordinator.get(quorum))!.approvals!.map((vote) => vote.approver.id)).toEqual(["mo"]);
      expect(a.decisions()).toHaveLength(1);
      expect(errorOf(await a.runtime.resume(single, { context: {} })).code).toBe("APPROVAL_PENDING");
      expect(a.ran.count).toBe(0);
    });

    it(`SI-4: ${store.name}: the coordinator itself refuses an anonymous approver, single or quorum vote, and the record stays pending`, async () => {
      const a = app();
      const single = await a.request("op");
      const quorum = await a.request("pair");
      for (const id of [single, quorum]) {
        for (const decision of anonymousDecisions) {
          await expect(a.coordinator.decide(id, decision)).rejects.toMatchObject({ code: "UNAUTHENTICATED", stage: "approval" });
        }
        const record = (await a.coordinator.get(id))!;
        expect(record.status).toBe("pending");
        expect(record.decision).toBeUndefined();
      }
      expect((await a.coordinator.get(quorum))!.approvals).toEqual([]);
    });
  });
}
