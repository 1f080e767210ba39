// Issue 29, attacker's view: every way found to resume an approval record the runtime did not create and decide
// as stored. Each edit below must be refused at resume exactly like an unknown approval id (SI-8), before the
// handler runs and without consuming the record. The store is an in-memory coordinator whose `get` an attacker
// (anyone with write access to the store) can rewrite; the Postgres half replays the edits on the real server.
import { createHash } from "node:crypto";
import { canonicalJson } from "../../packages/core/src/approvals/canonical-json.js";
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Actor,
  type AgentPolicy,
  type ApprovalCoordinator,
} from "@orpc-agent/core";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { tamperable } from "./support/tamperable.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const K1 = { id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" };
const cfo: Actor = Object.freeze({ id: "cfo", kind: "user" });
const hex = (text: string) => createHash("sha256").update(text).digest("hex");


/** Execution-phase policies that read what the record says about requester and approver. */
const policies: AgentPolicy[] = [
  {
    name: "gold-tier-only",
    phases: ["execution"],
    evaluate: ({ actor }) => (actor.attributes?.tier === "gold" ? { type: "allow" } : { type: "deny", message: "tier" }),
  },
  {
    name: "manager-approved",
    phases: ["execution"],
    evaluate: ({ approval }) =>
      approval === undefined || approval.decision?.approver.attributes?.role === "manager" ? { type: "allow" } : { type: "deny", message: "approver role" },
  },
];

function app(coordinator: ApprovalCoordinator, quorum?: number) {
  const ran: { actor: string; amount: number }[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, type: "manager", ...(quorum ? { quorum } : {}) } }) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input, context }) => {
      ran.push({ actor: context.agent!.actor.id, amount: input.amount });
      return "refunded";
    });
  const { runtime, events } = build({ defs: { refund }, policies, approvals: { coordinator, seal: { keys: [K1] } } });
  return { runtime, events, ran };
}

const basic: Actor = Object.freeze({ id: "dana", kind: "user", attributes: { tier: "basic" } });
const gold: Actor = Object.freeze({ id: "dana", kind: "user", attributes: { tier: "gold" } });
const clerk: Actor = Object.freeze({ id: "mo", kind: "user", attributes: { role: "clerk" } });
const manager: Actor = Object.freeze({ id: "mo", kind: "user", attributes: { role: "manager" } });

async function refused(a: ReturnType<typeof app>, store: ReturnType<typeof tamperable>, id: string) {
  const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
  const result = await a.runtime.resume(id, { context: {} });
  expect(errorOf(result)).toEqual(errorOf(unknown));
  expect(a.ran).toEqual([]);
  // Refused before anything else: the stored record is not consumed.
  expect((await store.inner.get(id))!.status).toBe("approved");
}

describe("attacks on sealed approvals that once resumed (issue 29, SI-8)", () => {
  it("SI-8: the requester's attributes edited in the store (a policy reads them at resume) are refused", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
    store.set((r) => ({ ...r, actor: { ...r.actor, attributes: { tier: "gold", injected: true } } }));
    await refused(a, store, approval.id);
  });

  it("SI-8: a basic-tier requester upgraded to gold in the store never gets past the seal", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: basic, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
    store.set((r) => ({ ...r, actor: gold }));
    await refused(a, store, approval.id);
  });

  it("SI-8: the requester's display name or acting agent edited in the store is refused", async () => {
    for (const edit of [
      (actor: Actor): Actor => ({ ...actor, displayName: "Dana (verified)" }),
      (actor: Actor): Actor => ({ ...actor, via: { id: "trusted-bot" } }),
    ]) {
      const store = tamperable();
      const a = app(store.coordinator);
      const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
      await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
      store.set((r) => ({ ...r, actor: edit(r.actor) }));
      await refused(a, store, approval.id);
    }
  });

  it("SI-8: the approver's attributes edited in the store (a clerk made a manager) are refused", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: clerk });
    store.set((r) => ({ ...r, decision: { ...r.decision!, approver: manager } }));
    await refused(a, store, approval.id);
  });

  it("SI-8: the decision's comment edited in the store is refused", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager, comment: "ok up to 5" });
    store.set((r) => ({ ...r, decision: { ...r.decision!, comment: "ok, any amount" } }));
    await refused(a, store, approval.id);
  });

  it("SI-8: an unsealed vote appended to a completed quorum (a name the audit would show as approver) is refused", async () => {
    const store = tamperable();
    const a = app(store.coordinator, 2);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "ann", kind: "user" } });
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
    store.set((r) => ({ ...r, approvals: [...r.approvals!, { approver: cfo, at: new Date() }] }));
    await refused(a, store, approval.id);
  });

  it("SI-8: the submitted input edited in the store (to one the schema still reduces to the approved value) is refused", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
    store.set((r) => ({ ...r, submittedInput: { amount: 5, note: "smuggled past the approver" } }));
    await refused(a, store, approval.id);
  });

  it("SI-8: a consumed record edited in the store is not laundered into a fresh sealed approval by reRequest", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    const big = { amount: 5_000_000 };
    store.set((r) => ({ ...r, input: big, submittedInput: big, inputHash: hex(canonicalJson(big)), risk: "low" }));
    const operator: Actor = { id: "ops", kind: "user" };
    await expect(a.runtime.approvals.reRequest(approval.id, { operator, reason: "never started" })).rejects.toThrow(`Approval "${approval.id}" was not found`);
    expect(await store.inner.get(`${approval.id}.r`)).toBeNull();
    // The untouched record re-requests as before.
    store.set(undefined);
    expect((await a.runtime.approvals.reRequest(approval.id, { operator, reason: "never started" })).status).toBe("pending");
  });

  it("SI-8: a request handed to runtime.approvals.create (not asked for by an invocation) is never sealed, so it never resumes", async () => {
    const store = tamperable();
    const a = app(store.coordinator);
    const genuine = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    const { status: _status, seal: _seal, ...request } = (await store.inner.get(genuine.id))!;
    const big = { amount: 5_000_000 };
    const forged = await a.runtime.approvals.create({ ...request, id: "apr_forged", input: big, submittedInput: big, inputHash: hex(canonicalJson(big)) });
    expect(forged.seal).toBeUndefined();
    await a.runtime.approvals.decide("apr_forged", { status: "approved", approver: manager });
    const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
    expect(errorOf(await a.runtime.resume("apr_forged", { context: {} }))).toEqual(errorOf(unknown));
    expect(a.ran).toEqual([]);
  });

  it("SI-8: an untouched record with attributes, comment and a quorum still resumes once", async () => {
    const store = tamperable();
    const a = app(store.coordinator, 2);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "ann", kind: "user", displayName: "Ann" }, comment: "fine" });
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager, comment: "fine too" });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([{ actor: "dana", amount: 5 }]);
  });
});

const db = useApprovalsSchema("orpc_adv_seal_attacks");
const table = APPROVALS_TABLE;

describe("the same attacks as SQL on the real server (issue 29, SI-8)", () => {
  const pgApp = (quorum?: number) => app(createPgApprovalCoordinator({ query: db.query }), quorum);
  const status = async (id: string) => (await db.pool().query(`select status from ${table} where id = $1`, [id])).rows[0].status;

  const edits: [string, string][] = [
    ["the requester's attributes", `update ${table} set actor = jsonb_set(actor, '{attributes,tier}', '"gold"') where id = $1`],
    ["the requester's acting agent", `update ${table} set actor = actor || '{"via":{"id":"trusted-bot"}}'::jsonb where id = $1`],
    ["the approver's attributes", `update ${table} set decided_by = jsonb_set(decided_by, '{attributes,role}', '"manager"') where id = $1`],
    ["the decision comment", `update ${table} set decision_comment = 'any amount' where id = $1`],
    ["the submitted input", `update ${table} set submitted_input = '{"amount":5,"note":"smuggled"}'::jsonb where id = $1`],
  ];
  for (const [what, sql] of edits) {
    it(`SI-8: ${what} edited in the table is refused like an unknown approval`, async () => {
      const a = pgApp();
      const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: basic, context: {} }));
      await a.runtime.approvals.decide(approval.id, { status: "approved", approver: clerk, comment: "up to 5" });
      const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
      await db.pool().query(sql, [approval.id]);
      expect(errorOf(await a.runtime.resume(approval.id, { context: {} }))).toEqual(errorOf(unknown));
      expect(a.ran).toEqual([]);
      expect(await status(approval.id)).toBe("approved");
    });
  }

  it("SI-8: an unsealed vote appended to a completed quorum in the table is refused", async () => {
    const a = pgApp(2);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: gold, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "ann", kind: "user" } });
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager });
    await db.pool().query(
      `update ${table} set approvals = approvals || jsonb_build_array(jsonb_build_object('approver', '{"id":"cfo","kind":"user"}'::jsonb, 'at', now()::text)) where id = $1`,
      [approval.id],
    );
    const unknown = await a.runtime.resume("apr_does-not-exist", { context: {} });
    expect(errorOf(await a.runtime.resume(approval.id, { context: {} }))).toEqual(errorOf(unknown));
    expect(a.ran).toEqual([]);
  });

  it("SI-8: an untouched record with attributes, comments and a quorum round-trips the table and resumes once", async () => {
    const a = pgApp(2);
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 5 }, { actor: { ...gold, displayName: "Dana", attributes: { tier: "gold", n: 1e21, f: 0.1, z: -0, s: "é\u0301" } }, context: {} }));
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "ann", kind: "user", attributes: { b: 2, a: 1 } }, comment: "fine" });
    await a.runtime.approvals.decide(approval.id, { status: "approved", approver: manager, comment: "ünïcode ok" });
    expect((await a.runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(a.ran).toEqual([{ actor: "dana", amount: 5 }]);
  });
});
