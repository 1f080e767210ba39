// Issue 29 on the real server: with `approvals.seal`, a row edited in the approvals table (the security review's
// tamperings) is refused at resume exactly like an unknown approval (SI-8), before the handler runs; without a seal
// the same edits go through, which is what the seal is for.
import { createHash } from "node:crypto";
import { canonicalJson } from "../../packages/core/src/approvals/canonical-json.js";
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApprovalSealOptions } from "@orpc-agent/core";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_sealed");
const table = APPROVALS_TABLE;

const K1 = { id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" };
const K2 = { id: "k2", secret: "k2-secret-that-is-long-enough-for-hmac!!" };
const hex = (text: string) => createHash("sha256").update(text).digest("hex");

function app(seal: ApprovalSealOptions | false, quorum?: number, now?: () => Date) {
  const ran: { cap: string; actor: string; amount: number }[] = [];
  const refund = (cap: string) =>
    base
      .meta({ agent: meta({ approval: { required: true, type: "manager", ...(quorum ? { quorum } : {}) } }) })
      .input(z.object({ amount: z.number() }))
      .handler(({ input, context }) => {
        ran.push({ cap, actor: context.agent!.actor.id, amount: input.amount });
        return "refunded";
      });
  const coordinator = createPgApprovalCoordinator({ query: db.query, ...(now ? { now } : {}) });
  const { runtime } = build({ defs: { smallRefund: refund("smallRefund"), largeRefund: refund("largeRefund") }, approvals: { coordinator, seal }, ...(now ? { now } : {}) });
  return { runtime, coordinator, ran };
}

async function approvedSmallRefund(seal: ApprovalSealOptions | false, now?: () => Date) {
  const a = app(seal, undefined, now);
  const approval = approvalOf(await a.runtime.invoke("smallRefund", { amount: 5 }, { actor: dana, context: {} }));
  await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
  return { ...a, id: approval.id };
}

const tamperings: [string, string, unknown[]][] = [
  ["capability and actor", `update ${table} set capability_id = 'largeRefund', actor = '{"id":"eve","kind":"user"}'::jsonb where id = $1`, []],
  // Each on its own too, so neither field can go unbound behind the other.
  ["capability alone", `update ${table} set capability_id = 'largeRefund' where id = $1`, []],
  ["actor alone", `update ${table} set actor = '{"id":"eve","kind":"user"}'::jsonb where id = $1`, []],
  ["input with a recomputed plain hash", `update ${table} set input = $2::jsonb, input_hash = $3 where id = $1`, ['{"amount":5000000}', hex(canonicalJson({ amount: 5_000_000 }))]],
  ["types dropped", `update ${table} set types = '[]'::jsonb where id = $1`, []],
  ["expiry extended", `update ${table} set expires_at = expires_at + interval '30 days' where id = $1`, []],
  ["approver swapped", `update ${table} set decided_by = '{"id":"cfo","kind":"user"}'::jsonb where id = $1`, []],
];

describe("sealed approvals survive nothing but the runtime's own writes (issue 29, SI-8)", () => {
  it("SI-8: an untouched sealed approval resumes and runs once", async () => {
    const a = await approvedSmallRefund({ keys: [K1] });
    expect((await a.runtime.resume(a.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([{ cap: "smallRefund", actor: "dana", amount: 5 }]);
  });

  for (const [what, sql, extra] of tamperings) {
    it(`SI-8: ${what} edited in the table is refused like an unknown approval; the handler never runs`, async () => {
      const a = await approvedSmallRefund({ keys: [K1] });
      const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
      await db.pool().query(sql, [a.id, ...extra]);
      const result = await a.runtime.resume(a.id, { context: {} });
      expect(errorOf(result)).toEqual(errorOf(unknown));
      expect(a.ran).toEqual([]);
      // Refused before anything else: the record is neither consumed nor otherwise changed.
      expect((await db.pool().query(`select status from ${table} where id = $1`, [a.id])).rows[0].status).toBe("approved");
    });
  }

  it("SI-8: without a seal, the same capability/actor edit executes the large refund as someone else (the attack the seal stops)", async () => {
    const a = await approvedSmallRefund(false);
    await db.pool().query(tamperings[0]![1], [a.id]);
    expect((await a.runtime.resume(a.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([{ cap: "largeRefund", actor: "eve", amount: 5 }]);
  });

  it("SI-8: without a seal, the input replaced with a recomputed plain hash executes 5 000 000 (the attack the seal stops)", async () => {
    const a = await approvedSmallRefund(false);
    const [, sql, extra] = tamperings.find(([what]) => what.startsWith("input"))!;
    await db.pool().query(sql, [a.id, ...extra]);
    expect((await a.runtime.resume(a.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([{ cap: "smallRefund", actor: "dana", amount: 5_000_000 }]);
  });

  it("SI-8: the expiry of an approval that has run out, extended in the table, is refused; without a seal it would execute", async () => {
    let clock = Date.parse("2026-12-02T10:00:00.000Z");
    const now = () => new Date(clock);
    const extend = `update ${table} set expires_at = expires_at + interval '30 days' where id = $1`;
    const sealed = await approvedSmallRefund({ keys: [K1] }, now);
    const unsealed = await approvedSmallRefund(false, now);
    clock += 2 * 24 * 60 * 60 * 1000;
    // Expired as stored: both refuse.
    expect(errorOf(await sealed.runtime.resume(sealed.id, { context: {} })).code).toBe("APPROVAL_EXPIRED");
    expect(errorOf(await unsealed.runtime.resume(unsealed.id, { context: {} })).code).toBe("APPROVAL_EXPIRED");
    await db.pool().query(extend, [sealed.id]);
    await db.pool().query(extend, [unsealed.id]);
    const unknown = await sealed.runtime.resume("apr_does-not-exist", { context: {} });
    expect(errorOf(await sealed.runtime.resume(sealed.id, { context: {} }))).toEqual(errorOf(unknown));
    expect(sealed.ran).toEqual([]);
    expect((await unsealed.runtime.resume(unsealed.id, { context: {} })).status).toBe("completed");
    expect(unsealed.ran).toHaveLength(1);
  });

  it("SI-8: a rejection flipped to approved in the table is refused", async () => {
    const a = app({ keys: [K1] });
    const approval = approvalOf(await a.runtime.invoke("smallRefund", { amount: 5 }, { actor: dana, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "rejected", approver: mo });
    await db.pool().query(`update ${table} set status = 'approved' where id = $1`, [approval.id]);
    const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} }))).toEqual(errorOf(unknown));
    expect(a.ran).toEqual([]);
  });

  it("SI-8: a pending approval marked approved in the table (no decision through the runtime) is refused", async () => {
    const a = app({ keys: [K1] });
    const approval = approvalOf(await a.runtime.invoke("smallRefund", { amount: 5 }, { actor: dana, context: {} }));
    await db.pool().query(`update ${table} set status = 'approved', decided_by = '{"id":"mo","kind":"user"}'::jsonb, decided_at = now() where id = $1`, [approval.id]);
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} })).code).toBe("INTERNAL_ERROR");
    expect(a.ran).toEqual([]);
  });

  it("SI-8: a decision made through the raw coordinator, bypassing the runtime, carries no seal and is refused", async () => {
    const a = app({ keys: [K1] });
    const approval = approvalOf(await a.runtime.invoke("smallRefund", { amount: 5 }, { actor: dana, context: {} }));
    await a.coordinator.decide(approval.id, { status: "approved", approver: mo, seal: "v1.k1.1.forged" });
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} })).code).toBe("INTERNAL_ERROR");
    expect(a.ran).toEqual([]);
  });

  it("SI-8: a row minted by hand in the table, copying another approval's seal, is refused", async () => {
    const a = await approvedSmallRefund({ keys: [K1] });
    await db.pool().query(
      `insert into ${table} (id, capability_id, surface, actor, input, input_hash, reasons, types, risk, side_effect, status, requested_at, expires_at, decided_by, decided_at, decision_comment, submitted_input, quorum, approvals, seal, decision_seal, definition_digest, manifest_digest, definition) select 'apr_minted', capability_id, surface, actor, input, input_hash, reasons, types, risk, side_effect, status, requested_at, expires_at, decided_by, decided_at, decision_comment, submitted_input, quorum, approvals, seal, decision_seal, definition_digest, manifest_digest, definition from ${table} where id = $1`,
      [a.id],
    );
    expect(errorOf(await a.runtime.resume("apr_minted", { context: {} })).code).toBe("INTERNAL_ERROR");
    expect(a.ran).toEqual([]);
  });

  it("SI-8: key rotation keeps old approvals verifiable; a key dropped from the list no longer verifies them", async () => {
    const before = await approvedSmallRefund({ keys: [K1] });
    const rotated = app({ keys: [K2, K1] });
    expect((await rotated.runtime.resume(before.id, { context: {} })).status).toBe("completed");
    const fresh = approvalOf(await rotated.runtime.invoke("smallRefund", { amount: 6 }, { actor: dana, context: {} }));
    expect((await rotated.coordinator.get(fresh.id))!.seal).toMatch(/^v1\.k2\./);
    // Asked under the old key, decided under the new one: each seal verifies under its own key id.
    const asked = approvalOf(await app({ keys: [K1] }).runtime.invoke("smallRefund", { amount: 7 }, { actor: dana, context: {} }));
    const decided = await rotated.runtime.approvals.decide(asked.id, { status: "approved", approver: mo });
    expect(decided.decision!.seal).toMatch(/^v1\.k2\./);
    expect((await rotated.runtime.resume(asked.id, { context: {} })).status).toBe("completed");
    expect(rotated.ran).toEqual([{ cap: "smallRefund", actor: "dana", amount: 5 }, { cap: "smallRefund", actor: "dana", amount: 7 }]);
    const old = await approvedSmallRefund({ keys: [K1] });
    const dropped = app({ keys: [K2] });
    expect(errorOf(await dropped.runtime.resume(old.id, { context: {} })).code).toBe("INTERNAL_ERROR");
    expect(dropped.ran).toEqual([]);
  });

  it("SI-8: a quorum vote added by hand to the approvals column never counts toward the quorum", async () => {
    const a = app({ keys: [K1] }, 2);
    const approval = approvalOf(await a.runtime.invoke("smallRefund", { amount: 5 }, { actor: dana, context: {} }));
    const first = await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect(first.status).toBe("pending");
    const copied = first.approvals![0]!.seal!;
    await db.pool().query(
      `update ${table} set approvals = approvals || jsonb_build_array(jsonb_build_object('approver', '{"id":"cfo","kind":"user"}'::jsonb, 'at', now()::text, 'seal', $2::text)),
         status = 'approved', decided_by = '{"id":"cfo","kind":"user"}'::jsonb, decided_at = now(), decision_seal = $2 where id = $1`,
      [approval.id, copied],
    );
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} })).code).toBe("INTERNAL_ERROR");
    expect(a.ran).toEqual([]);
  });

  it("SI-8: a quorum completed through the runtime resumes once", async () => {
    const a = app({ keys: [K1] }, 2);
    const approval = approvalOf(await a.runtime.invoke("smallRefund", { amount: 5 }, { actor: dana, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "cfo", kind: "user" } });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toHaveLength(1);
  });
});
