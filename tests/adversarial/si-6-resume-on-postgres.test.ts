// SI-5 / SI-6 on the real server: the submitted input survives the approvals table, so a transform applies once
// on resume, and a row whose submitted input was rewritten cannot change what executes.
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_submitted");

function payInCents() {
  const seen: unknown[] = [];
  const procedure = base
    .meta({ agent: meta({ approval: { required: true } }) })
    .input(z.object({ amount: z.number().transform((d) => d * 100) }))
    .handler(({ input }) => {
      seen.push(input);
      return "paid";
    });
  return { procedure, seen };
}

describe("resume through the PostgreSQL coordinator (SI-5, SI-6)", () => {
  it("SI-6: a transform applies once: the handler gets the approved 500, never 50 000", async () => {
    const pay = payInCents();
    const coordinator = createPgApprovalCoordinator({ query: db.query });
    const { runtime } = build({ defs: { pay: pay.procedure }, approvals: { coordinator, seal: false } });
    const approval = approvalOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    expect(approval.input).toEqual({ amount: 500 });
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    expect(result.status).toBe("completed");
    expect(pay.seen).toEqual([{ amount: 500 }]);
  });

  it("SI-5: a submitted input rewritten in the table is refused, the approval stays unconsumed", async () => {
    const pay = payInCents();
    const coordinator = createPgApprovalCoordinator({ query: db.query });
    const { runtime } = build({ defs: { pay: pay.procedure }, approvals: { coordinator, seal: false } });
    const approval = approvalOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    await db.pool().query(`update orpc_agent_approvals set submitted_input = '{"amount": 50000}'::jsonb where id = $1`, [approval.id]);
    const result = await runtime.resume(approval.id, { context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(pay.seen).toEqual([]);
    expect((await coordinator.get(approval.id))!.status).toBe("approved");
  });
});
