// Raised from the mutation run: an inline approval decision must be a plain object (docs/architecture/spec/core.md#core-10). A function that
// happens to carry `status` and `approver` is not a decision, so the gate fails instead of running the procedure.
import { describe, expect, it } from "vitest";
import { build, counted, dana, errorOf, priya } from "../../runtime/pipeline-harness.js";

describe("stage 8: the shape of an inline decision", () => {
  it("rejects a function dressed as an approval, and never calls the procedure", async () => {
    const gated = counted({ sideEffect: "write", approval: { required: true } });
    const disguised = Object.assign(() => undefined, { status: "approved", approver: priya });
    const { runtime } = build({ defs: { pay: gated.procedure }, approvals: { handler: async () => disguised as never } });
    const error = errorOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(gated.calls.count).toBe(0);
  });
});
