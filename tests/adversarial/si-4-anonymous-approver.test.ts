// SI-4: an approver of kind "anonymous" is refused, inline, by the coordinator and on resume (issue 22, item 8).
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

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
    await expect(coordinator.decide(approval.id, { status: "approved", approver: nobody })).rejects.toThrow(/anonymous/);
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
