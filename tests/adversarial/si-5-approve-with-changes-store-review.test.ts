// SI-5: adversarial review of approve with changes against a coordinator that predates edits. Such a store keeps the
// decision fields it knows (status, approver, comment) and silently drops `input` and `inputHash`: the record then
// reads approved for the request as asked, and the requester's resume would run the amount the approver refused. The
// runtime must notice the edit is missing from what the store returned and fail closed: the request as asked never runs.
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, build, dana, errorOf } from "./support/runtime.js";
import { priya, refunds } from "./support/grants.js";

// A custom store without a seal is warned about at startup, on purpose.
captureStartupWarnings(["W4"]);

/** A store written before approve with changes existed: it forwards only the decision fields it knows. */
function storeWithoutEdits(): ApprovalCoordinator {
  const inner = createInMemoryApprovalCoordinator();
  return {
    create: (request) => inner.create(request),
    get: (id) => inner.get(id),
    decide: (id, decision) =>
      inner.decide(id, { status: decision.status, approver: decision.approver, ...(decision.comment === undefined ? {} : { comment: decision.comment }) }),
    markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
  };
}

describe("approve with changes review: a store that drops the edit (SI-5)", () => {
  it("SI-5: when the store keeps the approval but not the edit, the decision is refused and the request as asked never executes", async () => {
    const { procedure: refund, ran } = refunds({ approval: { required: true, type: "manager" } });
    const { runtime } = build({ defs: { refund }, approvals: { coordinator: storeWithoutEdits() } });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
    });
    const result = await runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(result.status).not.toBe("completed");
    expect(errorOf(result).code).toBe("APPROVAL_CONSUMED");
    expect(ran).toEqual([]);
  });

  it("SI-5: when the store returns the edit from decide but reads the record back without it, the request as asked never executes", async () => {
    const { procedure: refund, ran } = refunds({ approval: { required: true, type: "manager" } });
    const inner = createInMemoryApprovalCoordinator();
    // Echoes what it was given, but persists (and so reads back) only the decision fields it knows.
    const store: ApprovalCoordinator = {
      create: (request) => inner.create(request),
      get: async (id) => {
        const record = await inner.get(id);
        if (record?.decision === undefined) return record;
        const { input: _input, inputHash: _hash, ...decision } = record.decision;
        return { ...record, decision };
      },
      decide: (id, decision) => inner.decide(id, decision),
      markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
    };
    const { runtime } = build({ defs: { refund }, approvals: { coordinator: store } });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
    });
    const result = await runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(errorOf(result).code).toBe("APPROVAL_CONSUMED");
    expect(ran).toEqual([]);
  });
});

