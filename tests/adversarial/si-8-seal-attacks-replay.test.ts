// Issue 29, attacker's view, part 2: seals replayed, copied, reshaped or malformed, records with broken instants,
// decisions whose getters answer differently, and the one edit the seal does not stop (a consumed row put back).
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor, ApprovalCoordinator, ApprovalDecision } from "@orpc-agent/core";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { tamperable, type Tamper } from "./support/tamperable.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const K1 = { id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" };
const ann: Actor = Object.freeze({ id: "ann", kind: "user" });
const cfo: Actor = Object.freeze({ id: "cfo", kind: "user" });


function app(coordinator: ApprovalCoordinator, quorum?: number) {
  const ran: number[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, type: "manager", ...(quorum ? { quorum } : {}) } }) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input }) => (ran.push(input.amount), "refunded"));
  const { runtime, events } = build({ defs: { refund }, approvals: { coordinator, seal: { keys: [K1] } } });
  return { runtime, events, ran };
}

async function approved(store: ReturnType<typeof tamperable>, approvers: Actor[] = [mo], quorum?: number) {
  const a = app(store.coordinator, quorum);
  const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
  for (const approver of approvers) await a.runtime.approvals.decide(approval.id, { status: "approved", approver });
  return { ...a, id: approval.id };
}

async function expectRefused(a: { runtime: ReturnType<typeof app>["runtime"]; ran: number[] }, store: ReturnType<typeof tamperable>, id: string) {
  const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
  expect(errorOf(await a.runtime.resume(id, { context: {} }))).toEqual(errorOf(unknown));
  expect(a.ran).toEqual([]);
  expect((await store.inner.get(id))!.status).not.toBe("consumed");
}

describe("replayed and reshaped seals (issue 29, SI-8)", () => {
  it("SI-8: the same approval's rejection seal replayed as an approval is refused", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    const rejected = await a.runtime.approvals.decide(approval.id, { status: "rejected", approver: mo });
    store.set((r) => ({ ...r, status: "approved", decision: { ...r.decision!, status: "approved", seal: rejected.decision!.seal } }));
    await expectRefused(a, store, approval.id);
  });

  it("SI-8: a decision seal copied from another approval of the same requester, approver and input is refused", async () => {
    const store = tamperable();
    const first = await approved(store);
    const second = app(store.coordinator);
    const pending = approvalOf(await second.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    const donor = (await store.inner.get(first.id))!.decision!;
    store.set((r) => (r.id === pending.id ? { ...r, status: "approved", decision: structuredClone(donor) } : r));
    await expectRefused(second, store, pending.id);
  });

  it("SI-8: a quorum vote's seal moved to another approver, duplicated, or its kind changed is refused", async () => {
    const edits: Tamper[] = [
      (r) => ({ ...r, approvals: [r.approvals![0]!, { ...r.approvals![1]!, approver: cfo }], decision: { ...r.decision!, approver: cfo } }),
      (r) => ({ ...r, approvals: [r.approvals![1]!, r.approvals![1]!] }),
      (r) => ({ ...r, approvals: [{ ...r.approvals![0]!, approver: { id: "ann", kind: "service" } }, r.approvals![1]!] }),
    ];
    for (const edit of edits) {
      const store = tamperable();
      const a = await approved(store, [ann, mo], 2);
      store.set(edit);
      await expectRefused(a, store, a.id);
    }
  });

  it("SI-8: a quorum vote copied from another approval is refused", async () => {
    const store = tamperable();
    const donor = await approved(store, [ann, cfo], 2);
    const a = app(store.coordinator, 2);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    const cfoVote = (await store.inner.get(donor.id))!.approvals![1]!;
    const mine = (await store.inner.get(approval.id))!;
    store.set((r) =>
      r.id === approval.id ? { ...r, status: "approved", approvals: [...mine.approvals!, cfoVote], decision: { ...mine.approvals![0]!, status: "approved", decidedAt: new Date() } } : r,
    );
    await expectRefused(a, store, approval.id);
  });

  it("SI-8: reordered quorum votes are the same votes: the record still resumes (order is not sealed)", async () => {
    const store = tamperable();
    const a = await approved(store, [ann, mo], 2);
    store.set((r) => ({ ...r, approvals: [...r.approvals!].reverse() }));
    expect((await a.runtime.resume(a.id, { context: {} })).status).toBe("completed");
  });

  it("SI-8: malformed seals (extra segment, a key id with a dot, a trailing byte, an unknown key) are refused", async () => {
    const edits: Tamper[] = [
      (r) => ({ ...r, seal: `${r.seal}.x` }),
      (r) => ({ ...r, seal: r.seal!.replace("v1.k1.", "v1.k1.x.") }),
      (r) => ({ ...r, seal: r.seal!.replace("v1.k1.", "v1.k.1.") }),
      (r) => ({ ...r, seal: `${r.seal}A` }),
      (r) => ({ ...r, seal: r.seal!.replace("v1.k1.", "v1.k2.") }),
      (r) => ({ ...r, decision: { ...r.decision!, seal: `${r.decision!.seal}.x` } }),
      (r) => ({ ...r, decision: { ...r.decision!, seal: r.decision!.seal!.replace(/^v1\.k1\.(\d+)\./, "v1.k1.$1.0.") } }),
      (r) => ({ ...r, decision: { ...r.decision!, seal: r.decision!.seal!.replace(/^v1\.k1\.(\d+)\./, (_m, at: string) => `v1.k1.${Number(at) + 1}.`) } }),
    ];
    for (const edit of edits) {
      const store = tamperable();
      const a = await approved(store);
      store.set(edit);
      await expectRefused(a, store, a.id);
    }
  });

  it("SI-8: an invalid-Date or moved expiry or request instant is refused, never treated as no expiry", async () => {
    const edits: Tamper[] = [
      (r) => ({ ...r, expiresAt: new Date(Number.NaN) }),
      (r) => ({ ...r, requestedAt: new Date(Number.NaN) }),
      (r) => ({ ...r, expiresAt: new Date(r.expiresAt.getTime() + 1) }),
      (r) => ({ ...r, expiresAt: "2999-01-01T00:00:00.000Z" as unknown as Date }),
    ];
    for (const edit of edits) {
      const store = tamperable();
      const a = await approved(store);
      store.set(edit);
      await expectRefused(a, store, a.id);
    }
  });

  it("SI-8: a confusable capability id, an edited definition digest or a dropped quorum is refused", async () => {
    const edits: Tamper[] = [
      (r) => ({ ...r, capabilityId: "refund\u200b" }),
      (r) => ({ ...r, definitionDigest: `sha256:${"0".repeat(64)}` }),
      (r) => ({ ...r, definitionDigest: undefined, definition: undefined }),
    ];
    for (const edit of edits) {
      const store = tamperable();
      const a = await approved(store);
      store.set(edit);
      await expectRefused(a, store, a.id);
    }
    const store = tamperable();
    const a = await approved(store, [ann, mo], 2);
    store.set((r) => ({ ...r, quorum: undefined, approvals: undefined }));
    await expectRefused(a, store, a.id);
  });

  it("SI-8: a decision whose approver getter answers differently is sealed, stored and audited as one approver", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    let reads = 0;
    const decision = {
      status: "approved",
      get approver() {
        reads += 1;
        return reads % 2 === 1 ? mo : cfo;
      },
    } as ApprovalDecision;
    const record = await a.runtime.approvals.decide(approval.id, decision);
    const audited = a.events.find((e) => e.type === "capability.approved")!;
    expect(audited.actor.id).toBe(record.decision!.approver.id);
    // Whoever was stored, the seal names the same approver, so the record resumes (and would fail if they differed).
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
  });

  it("SI-8: a decision whose approver getter would name the requester after the self-approval check is read once", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    let reads = 0;
    const decision = {
      status: "approved",
      get approver() {
        reads += 1;
        return reads <= 1 ? mo : dana;
      },
    } as ApprovalDecision;
    const record = await a.runtime.approvals.decide(approval.id, decision);
    // The approver the guards checked is the one sealed and stored: the requester never gets in.
    expect(reads).toBe(1);
    expect(record.decision!.approver.id).toBe("mo");
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
  });

  it("SI-8: a record that changes between reads is checked as the one read: resume reads the store once", async () => {
    const store = tamperable();
    const a = await approved(store);
    let gets = 0;
    store.set((r) => (++gets === 1 ? { ...r, actor: cfo } : r));
    await expectRefused(a, store, a.id);
    expect(gets).toBe(1);
  });
});

const db = useApprovalsSchema("orpc_adv_seal_replay");
const table = APPROVALS_TABLE;

describe("the seal's stated limit on the real server (issue 29)", () => {
  it("SI-8: a consumed row minted in the table (a copy under a new id) is not re-requested into a sealed approval", async () => {
    const a = app(createPgApprovalCoordinator({ query: db.query }));
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    const columns = "capability_id, surface, actor, input, input_hash, reasons, types, risk, side_effect, status, requested_at, expires_at, decided_by, decided_at, decision_comment, submitted_input, quorum, approvals, seal, decision_seal, definition_digest, manifest_digest, definition, consumed_by_execution_id";
    await db.pool().query(`insert into ${table} (id, ${columns}) select 'apr_minted_consumed', ${columns} from ${table} where id = $1`, [approval.id]);
    const operator: Actor = { id: "ops", kind: "user" };
    await expect(a.runtime.approvals.reRequest("apr_minted_consumed", { operator, reason: "never started" })).rejects.toThrow('Approval "apr_minted_consumed" was not found');
    expect((await db.pool().query(`select count(*)::int as n from ${table} where id = 'apr_minted_consumed.r'`)).rows[0].n).toBe(0);
    // The genuine consumed record still re-requests.
    expect((await a.runtime.approvals.reRequest(approval.id, { operator, reason: "never started" })).status).toBe("pending");
  });

  it("SI-8 (documented limit): a consumed row put back to approved with its execution id cleared resumes again; the seal does not stop it", async () => {
    const a = app(createPgApprovalCoordinator({ query: db.query }));
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    // Status alone cannot be flipped (a check constraint ties `approved` to no consuming execution), so clear both.
    await expect(db.pool().query(`update ${table} set status = 'approved' where id = $1`, [approval.id])).rejects.toThrow(/check constraint/);
    await db.pool().query(`update ${table} set status = 'approved', consumed_by_execution_id = null where id = $1`, [approval.id]);
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([5, 5]);
  });
});
