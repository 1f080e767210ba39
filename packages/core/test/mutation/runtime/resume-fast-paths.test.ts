// Raised from the mutation run: docs/architecture/spec/core.md#core-16 "no async hop that is not needed" on resume, between the stored input's
// re-validation (R8), the current policies (R10) and consumption (R11).
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import { agentMeta, allow, createInMemoryApprovalCoordinator, definePolicy, type ApprovalCoordinator } from "../../../src/index.js";
import { base, build, dana, meta, priya } from "../../runtime/pipeline-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

describe("resume R8..R11 stay in one turn when the schema and policies are synchronous", () => {
  it("the coordinator is asked to consume before a microtask queued by R8's validate has run", async () => {
    // Each validate call opens a "turn" that a queued microtask closes; consumption must come before it closes.
    let turn = { closed: false };
    const schema: StandardSchemaV1<{ amount: number }> = {
      "~standard": {
        version: 1,
        vendor: "mutation-sync-turn",
        validate: (value) => {
          const current = { closed: false };
          turn = current;
          queueMicrotask(() => void (current.closed = true));
          return { value: value as { amount: number } };
        },
      },
    };
    const procedure = base
      .input(schema)
      .meta(agentMeta(meta({ expose: { direct: true }, sideEffect: "write", approval: { required: true } })))
      .handler(({ input }) => input.amount);
    const inner = createInMemoryApprovalCoordinator();
    const closedAtConsume: boolean[] = [];
    const coordinator: ApprovalCoordinator = {
      ...inner,
      markConsumed: (id, executionId) => (closedAtConsume.push(turn.closed), inner.markConsumed(id, executionId)),
    };
    const policies = [definePolicy("look", () => allow())];
    const { runtime } = build({ defs: { refund: procedure }, policies, approvals: { coordinator } });

    const pending = await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} });
    if (pending.status !== "approval-required") throw new Error(`expected a suspension, got ${pending.status}`);
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    expect(await runtime.resume(pending.approval.id, { context: {} })).toMatchObject({ status: "completed", output: 5 });
    expect(closedAtConsume).toEqual([false]);
  });
});
