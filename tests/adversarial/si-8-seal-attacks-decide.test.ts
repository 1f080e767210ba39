// Issue 29, attacker's view, part 4: edit a pending approval so the approver sees something harmless, let them
// approve through the runtime, then put the row back. A decision seal names the request seal, not what was shown,
// so the runtime must neither show nor seal a decision on a record whose seal fails: it is unknown (SI-8).
import { createHash } from "node:crypto";
import { canonicalJson } from "../../packages/core/src/approvals/canonical-json.js";
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApprovalCoordinator, ApprovalRecord } from "@orpc-agent/core";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { tamperable } from "./support/tamperable.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const K1 = { id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" };
const hex = (text: string) => createHash("sha256").update(text).digest("hex");
const small = { amount: 5 };

function app(coordinator: ApprovalCoordinator) {
  const ran: number[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, type: "manager" } }) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input }) => (ran.push(input.amount), "refunded"));
  const { runtime } = build({ defs: { refund }, approvals: { coordinator, seal: { keys: [K1] } } });
  return { runtime, ran };
}

/** How `decide` answers an unknown id, typed (issue 43): an edited record must answer exactly so. */
const unknownApproval = (id: string) => ({ code: "INTERNAL_ERROR", stage: "approval", cause: new Error(`Approval "${id}" was not found`) });

/** What the approver should see instead of the large refund: a small one, hash recomputed. */
const disguise = (record: ApprovalRecord): ApprovalRecord => ({ ...record, input: small, submittedInput: small, inputHash: hex(canonicalJson(small)) });

describe("an approval decided on a disguised record (issue 29, SI-8)", () => {
  it("SI-8: the disguised record is not shown, its decision is refused like an unknown id, and the restored row never resumes", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5_000_000 }, { actor: dana, context: {} }));
    store.set(disguise);
    expect(await a.runtime.approvals.get(approval.id)).toBeNull();
    expect((await a.runtime.approvals.list!()).map((record) => record.id)).not.toContain(approval.id);
    await expect(a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo })).rejects.toMatchObject(unknownApproval(approval.id));
    await expect(a.runtime.approvals.decide("apr_does-not-exist", { status: "approved", approver: mo })).rejects.toMatchObject(unknownApproval("apr_does-not-exist"));
    // The attacker puts the row back: nothing was approved, so nothing runs.
    store.set(undefined);
    expect((await store.inner.get(approval.id))!.status).toBe("pending");
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_PENDING");
    expect(a.ran).toEqual([]);
    // The genuine record is shown again, and an approver who sees the real amount can still decide it.
    expect((await a.runtime.approvals.get(approval.id))!.input).toEqual({ amount: 5_000_000 });
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([5_000_000]);
  });

  it("SI-8: a record whose seal was stripped is shown and decided, but the decision is unsealed and never resumes", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5_000_000 }, { actor: dana, context: {} }));
    store.set((record) => {
      const { seal: _seal, ...rest } = disguise(record);
      return rest;
    });
    const decided = await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect(decided.decision?.seal).toBeUndefined();
    store.set(undefined);
    const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} }))).toEqual(errorOf(unknown));
    expect(a.ran).toEqual([]);
  });
});

const db = useApprovalsSchema("orpc_adv_seal_decide");
const table = APPROVALS_TABLE;

describe("the same disguise as SQL on the real server (issue 29, SI-8)", () => {
  it("SI-8: an approval decided while its row showed a small refund does not execute the large one after the row is put back", async () => {
    const a = app(createPgApprovalCoordinator({ query: db.query }));
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5_000_000 }, { actor: dana, context: {} }));
    const original = (await db.pool().query(`select input, submitted_input, input_hash from ${table} where id = $1`, [approval.id])).rows[0];
    await db.pool().query(`update ${table} set input = $2::jsonb, submitted_input = $2::jsonb, input_hash = $3 where id = $1`, [
      approval.id,
      JSON.stringify(small),
      hex(canonicalJson(small)),
    ]);
    expect(await a.runtime.approvals.get(approval.id)).toBeNull();
    await expect(a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo })).rejects.toMatchObject(unknownApproval(approval.id));
    await db.pool().query(`update ${table} set input = $2::jsonb, submitted_input = $3::jsonb, input_hash = $4 where id = $1`, [
      approval.id,
      JSON.stringify(original.input),
      original.submitted_input === null ? null : JSON.stringify(original.submitted_input),
      original.input_hash,
    ]);
    expect((await db.pool().query(`select status from ${table} where id = $1`, [approval.id])).rows[0].status).toBe("pending");
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_PENDING");
    expect(a.ran).toEqual([]);
  });
});
