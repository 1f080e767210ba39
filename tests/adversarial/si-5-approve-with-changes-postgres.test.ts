// SI-5 / SI-8 on the real server: approve with changes keeps the edit beside the request in the approvals table, and a
// row whose edit was rewritten after the decision cannot change what executes: without a seal its hash no longer
// matches; with one, an edit rewritten together with its hash, or dropped, reads as unknown.
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { Actor } from "@orpc-agent/core";
import { hashCanonicalInputAsync as hashCanonicalInput } from "../../packages/core/src/approvals/hash.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta } from "./support/runtime.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_edit");
const priya: Actor = { id: "priya", kind: "user" };
const KEY = { id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" };

async function app(seal: boolean) {
  const ran: unknown[] = [];
  const refund = base
    .input(z.object({ customerId: z.string(), amount: z.number() }))
    .meta({ agent: meta({ approval: { required: true, type: "manager" } }) })
    .handler(({ input }) => {
      ran.push(input);
      return "refunded";
    });
  const coordinator = createPgApprovalCoordinator({ query: db.query });
  const { runtime } = build({ defs: { refund }, approvals: { coordinator, seal: seal ? { keys: [KEY] } : false } });
  const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
  await runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } });
  const resume = () => runtime.resume(approval.id, { context: {}, expectedActor: dana });
  const status = async () => (await db.pool().query(`select status from ${APPROVALS_TABLE} where id = $1`, [approval.id])).rows[0]?.status;
  return { runtime, approval, ran, resume, status };
}

describe("approve with changes on PostgreSQL (SI-5, SI-8)", () => {
  it("SI-5: the row keeps the request's input and hash beside the edit's; resume runs the edit once", async () => {
    const { approval, ran, resume } = await app(false);
    const { rows } = await db.pool().query(`select input, input_hash, decision_input, decision_input_hash from ${APPROVALS_TABLE} where id = $1`, [approval.id]);
    expect(rows[0]).toEqual({
      input: { customerId: "c_ada", amount: 320 },
      input_hash: approval.inputHash,
      decision_input: { customerId: "c_ada", amount: 80 },
      decision_input_hash: await hashCanonicalInput({ customerId: "c_ada", amount: 80 }),
    });
    expect(await resume()).toMatchObject({ status: "completed", approvedWithChanges: { changed: ["/amount"] } });
    expect(errorOf(await resume()).code).toBe("APPROVAL_CONSUMED");
    expect(ran).toEqual([{ customerId: "c_ada", amount: 80 }]);
  });

  it("SI-5: an edited input rewritten in the table after the decision fails closed, the approval unconsumed", async () => {
    const { approval, ran, resume, status } = await app(false);
    await db.pool().query(`update ${APPROVALS_TABLE} set decision_input = '{"customerId":"c_mallory","amount":80}'::jsonb where id = $1`, [approval.id]);
    expect(errorOf(await resume()).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(ran).toEqual([]);
    expect(await status()).toBe("approved");
  });

  it("SI-8: with a seal, an edit rewritten together with its hash reads as unknown", async () => {
    const { approval, ran, resume, status } = await app(true);
    const forged = { customerId: "c_mallory", amount: 80 };
    await db.pool().query(`update ${APPROVALS_TABLE} set decision_input = $2::jsonb, decision_input_hash = $3 where id = $1`, [approval.id, JSON.stringify(forged), await hashCanonicalInput(forged)]);
    expect(errorOf(await resume()).code).toBe("INTERNAL_ERROR");
    expect(ran).toEqual([]);
    expect(await status()).toBe("approved");
  });

  it("SI-8: with a seal, an edit dropped from the row (back to the request as asked, 320) reads as unknown", async () => {
    const { approval, ran, resume, status } = await app(true);
    await db.pool().query(`update ${APPROVALS_TABLE} set decision_input = null, decision_input_hash = null where id = $1`, [approval.id]);
    expect(errorOf(await resume()).code).toBe("INTERNAL_ERROR");
    expect(ran).toEqual([]);
    expect(await status()).toBe("approved");
  });
});
