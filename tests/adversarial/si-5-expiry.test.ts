// SI-5: expiry fails closed: a non-Date or non-finite expiresAt, or a non-finite clock reading, is expired (issue 22, finding 7).
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator, type ApprovalRecord } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

function gated() {
  const ran = { count: 0 };
  const procedure = base.meta({ agent: meta({ approval: { required: true } }) }).handler(() => (ran.count++, "done"));
  return { procedure, ran };
}

/** A custom coordinator that rewrites what `get` reports, as a buggy store might. */
function rewriting(inner: ApprovalCoordinator, rewrite: (r: ApprovalRecord) => ApprovalRecord): ApprovalCoordinator {
  return { ...inner, get: async (id) => ((r) => (r === null ? null : rewrite(r)))(await inner.get(id)) };
}

async function approvedOnce(coordinator: ApprovalCoordinator) {
  const cap = gated();
  const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator } });
  const approval = approvalOf(await runtime.invoke("op", {}, { actor: dana, context: {} }));
  await coordinator.decide(approval.id, { status: "approved", approver: mo });
  return { approval, cap };
}

describe("expiry fails closed (SI-5)", () => {
  it("SI-5: an inline approval under a clock that reads Invalid Date is expired", async () => {
    const cap = gated();
    const { runtime } = build({
      defs: { op: cap.procedure },
      now: () => new Date(Number.NaN),
      approvals: { handler: async () => ({ status: "approved", approver: mo }) },
    });
    const result = await runtime.invoke("op", {}, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_EXPIRED");
    expect(cap.ran.count).toBe(0);
  });

  for (const [label, bad] of [
    ["an Invalid Date", () => new Date(Number.NaN)],
    ["an ISO string", () => "2999-01-01T00:00:00.000Z"],
    ["an unparsable string", () => "next year"],
    ["a number", () => 32503680000000],
  ] as const) {
    it(`SI-5: a record whose expiresAt is ${label} (a custom coordinator) is expired on resume and not consumed`, async () => {
      const store = createInMemoryApprovalCoordinator();
      const coordinator = rewriting(store, (r) => ({ ...r, expiresAt: bad() as unknown as Date }));
      const { approval } = await approvedOnce(coordinator);
      const ran = { count: 0 };
      const again = base.meta({ agent: meta({ approval: { required: true } }) }).handler(() => (ran.count++, "done"));
      const { runtime } = build({ defs: { op: again }, approvals: { coordinator } });
      const result = await runtime.resume(approval.id, { context: {} });
      expect(errorOf(result).code).toBe("APPROVAL_EXPIRED");
      expect(ran.count).toBe(0);
      expect((await store.get(approval.id))!.status).toBe("approved");
    });
  }

  it("SI-5: a resume under a clock that reads Invalid Date is expired", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const { approval } = await approvedOnce(coordinator);
    const ran = { count: 0 };
    const again = base.meta({ agent: meta({ approval: { required: true } }) }).handler(() => (ran.count++, "done"));
    const { runtime } = build({ defs: { op: again }, approvals: { coordinator }, now: () => new Date(Number.NaN) });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_EXPIRED");
    expect(ran.count).toBe(0);
  });

  it("SI-5: the in-memory coordinator treats a pending record as expired under a clock that reads Invalid Date", async () => {
    let broken = false;
    const coordinator = createInMemoryApprovalCoordinator({ now: () => (broken ? new Date(Number.NaN) : new Date()) });
    const cap = gated();
    const { runtime } = build({ defs: { op: cap.procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("op", {}, { actor: dana, context: {} }));
    broken = true;
    expect((await coordinator.get(approval.id))!.status).toBe("expired");
    await expect(coordinator.decide(approval.id, { status: "approved", approver: mo })).rejects.toThrow();
  });
});
