// SI-5 / SI-8: adversarial review of approve with changes (issue 50, item 5) on the real server. Two instances deciding
// one approval at once with different edits: exactly one binding wins, the row holds that edit and its hash under a
// seal that verifies, and the requester's resume executes that edit and no other, once.
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { Actor } from "@orpc-agent/core";
import { hashCanonicalInputAsync as hashCanonicalInput } from "../../packages/core/src/approvals/hash.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_edit_review");
const priya: Actor = { id: "priya", kind: "user" };
const KEY = { id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" };

function instance(ran: unknown[]) {
  const refund = base
    .input(z.object({ customerId: z.string(), amount: z.number() }))
    .meta({ agent: meta({ approval: { required: true, type: "manager" } }) })
    .handler(({ input }) => {
      ran.push(input);
      return "refunded";
    });
  return build({ defs: { refund }, approvals: { coordinator: createPgApprovalCoordinator({ query: db.query }), seal: { keys: [KEY] } } }).runtime;
}

describe("approve with changes review on PostgreSQL (SI-5, SI-8)", () => {
  it("SI-5: two instances deciding one approval at once with different edits: one binding wins, and its edit is what runs", async () => {
    const ran: unknown[] = [];
    const a = instance(ran);
    const b = instance(ran);
    const approval = approvalOf(await a.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    const edits = [
      { customerId: "c_ada", amount: 80 },
      { customerId: "c_ada", amount: 50 },
    ];
    const settled = await Promise.allSettled([
      a.approvals.decide(approval.id, { status: "approved", approver: priya, input: edits[0] }),
      b.approvals.decide(approval.id, { status: "approved", approver: mo, input: edits[1] }),
    ]);
    const won = settled.flatMap((s, i) => (s.status === "fulfilled" ? [i] : []));
    expect(won).toHaveLength(1);
    const lost = settled.find((s) => s.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as { code: string }).code).toMatch(/^APPROVAL_/);
    const winner = edits[won[0]!]!;
    const { rows } = await db.pool().query(`select decision_input, decision_input_hash from ${APPROVALS_TABLE} where id = $1`, [approval.id]);
    expect(rows[0]).toEqual({ decision_input: winner, decision_input_hash: await hashCanonicalInput(winner) });
    // The other instance resumes: the seal verifies there, the winner's edit runs once, nothing else ever does.
    const other = won[0] === 0 ? b : a;
    expect(await other.resume(approval.id, { context: {}, expectedActor: dana })).toMatchObject({ status: "completed", approvedWithChanges: { changed: ["/amount"] } });
    expect(errorOf(await a.resume(approval.id, { context: {}, expectedActor: dana })).code).toBe("APPROVAL_CONSUMED");
    expect(ran).toEqual([winner]);
  });

  it("SI-5: an edit the server cannot store (a lone surrogate) refuses the decision and leaves the approval pending, nothing run", async () => {
    const ran: unknown[] = [];
    const a = instance(ran);
    const approval = approvalOf(await a.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    await expect(a.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_\ud800", amount: 80 } })).rejects.toBeDefined();
    expect((await a.approvals.get(approval.id))?.status).toBe("pending");
    expect(errorOf(await a.resume(approval.id, { context: {}, expectedActor: dana })).code).toBe("APPROVAL_PENDING");
    expect(ran).toEqual([]);
  });
});

describe("approve with changes review: an edit has no JSON form it did not have (SI-5, SI-6)", () => {
  /** A refund where a missing amount (null) means "refund everything": a NaN must never be read as that null. */
  function fullRefundApp() {
    const ran: unknown[] = [];
    const refund = base
      .input(z.object({ customerId: z.string(), amount: z.number().int().positive().nullable(), memo: z.string().optional() }))
      .meta({ agent: meta({ approval: { required: true, type: "manager" } }) })
      .handler(({ input }) => {
        ran.push(input);
        return "refunded";
      });
    const { runtime } = build({ defs: { refund } });
    return { runtime, ran };
  }

  it("SI-6: an edited amount of NaN is refused as the schema refuses it, never approved as null (refund everything)", async () => {
    const { runtime, ran } = fullRefundApp();
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: Number.NaN } })).rejects.toMatchObject({
      code: "INPUT_INVALID",
    });
    expect((await runtime.approvals.get(approval.id))?.status).toBe("pending");
    expect(ran).toEqual([]);
  });

  it("SI-5: an edit with a function-valued property is refused, never bound with the property dropped", async () => {
    const { runtime } = fullRefundApp();
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    const edit = { customerId: "c_ada", amount: 80, memo: () => "approved by the manager" };
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: edit })).rejects.toMatchObject({ code: "INPUT_INVALID" });
    expect((await runtime.approvals.get(approval.id))?.status).toBe("pending");
  });

  it("SI-5: an edit holding a Map is refused, never bound as the empty object JSON.stringify makes of it", async () => {
    const ran: unknown[] = [];
    const refund = base
      .input(z.object({ customerId: z.string(), lines: z.record(z.string(), z.number()).optional() }))
      .meta({ agent: meta({ approval: { required: true, type: "manager" } }) })
      .handler(({ input }) => (ran.push(input), "refunded"));
    const { runtime } = build({ defs: { refund } });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", lines: { sku_1: 2 } }, { actor: dana, context: {} }));
    const edit = { customerId: "c_ada", lines: new Map([["sku_1", 1]]) };
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: edit })).rejects.toMatchObject({ code: "INPUT_INVALID" });
    expect((await runtime.approvals.get(approval.id))?.status).toBe("pending");
    expect(ran).toEqual([]);
  });
});

describe("approve with changes review: evidence and the requester's view (SI-10, SI-9)", () => {
  it("SI-10: an edited input's sentinel appears in no audit event across decide and resume; the model is told paths, never values", async () => {
    const SENTINEL = "sentinel-edit-7f3a";
    const ran: unknown[] = [];
    const refund = base
      .input(z.object({ customerId: z.string(), amount: z.number(), note: z.string().optional() }))
      .meta({ agent: meta({ approval: { required: true, type: "manager" } }) })
      .handler(({ input }) => (ran.push(input), "refunded"));
    const { runtime, events } = build({ defs: { refund } });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80, note: SENTINEL } });
    const result = await runtime.resume(approval.id, { context: {}, expectedActor: dana });
    await runtime.drainAudit();
    expect(result).toMatchObject({ status: "completed", approvedWithChanges: { changed: ["/amount", "/note"] } });
    expect(JSON.stringify((result as { approvedWithChanges?: unknown }).approvedWithChanges)).not.toContain(SENTINEL);
    expect(ran).toEqual([{ customerId: "c_ada", amount: 80, note: SENTINEL }]);
    expect(JSON.stringify(events)).not.toContain(SENTINEL);
  });
});

