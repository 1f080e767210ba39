// Escalation and expiry warnings across instances (issue 50, item 4): two runtimes on one PostgreSQL approvals table,
// each with its own coordinator and notifier, sweep concurrently. Each notice is claimed by one compare-and-set
// statement, so of all the sweeps exactly one sends it; none changes a status or decides anything (SI-4).
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { AgentAuditEvent, ApprovalNotification } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, meta } from "./support/runtime.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_sweep");
const MIN = 60_000;

function instance(clock: { now(): Date }) {
  const sent: ApprovalNotification[] = [];
  const refund = base
    .meta({
      agent: meta({
        approval: { required: true, expiresInMs: 60 * MIN, escalate: [{ afterMs: 15 * MIN, to: ["team-lead"] }, { afterMs: 30 * MIN, to: ["head-of-support"] }] },
      }),
    })
    .input(z.object({ amount: z.number() }))
    .handler(() => "refunded");
  const coordinator = createPgApprovalCoordinator({ query: db.query, now: clock.now });
  const { runtime, events } = build({ defs: { refund }, now: clock.now, approvals: { coordinator, seal: false, notify: (n) => void sent.push(n) } });
  return { runtime, events, sent };
}

const noticesOf = (sent: ApprovalNotification[]) =>
  sent.flatMap((n) => (n.type === "approval.escalated" ? [`${n.approvalId} escalate:${n.step}`] : n.type === "approval.expiring" ? [`${n.approvalId} expiring`] : []));
const escalationsOf = (events: AgentAuditEvent[]) => events.flatMap((e) => (e.type === "approval.escalated" ? [`${e.data.approvalId} escalate:${e.data.step}`] : []));

describe("approval sweep on PostgreSQL (SI-4)", () => {
  it("SI-4: two runtimes on one table, sweeping concurrently over 10 rounds, send each notice exactly once", async () => {
    let at = Date.parse("2031-05-06T07:00:00.000Z");
    const clock = { now: () => new Date(at) };
    const a = instance(clock);
    const b = instance(clock);
    const expected: string[] = [];
    for (let round = 0; round < 10; round++) {
      // Each round asks on one instance or the other; the previous rounds' approvals have expired by now.
      const asker = round % 2 === 0 ? a : b;
      const approval = approvalOf(await asker.runtime.invoke("refund", { amount: round + 1 }, { actor: dana, context: {} }));
      at += 55 * MIN;
      const results = await Promise.all([a, b, a, b, a, b].map((i) => i.runtime.approvals.sweep()));
      expect(results.reduce((sum, r) => sum + r.escalated, 0)).toBe(2);
      expect(results.reduce((sum, r) => sum + r.expiring, 0)).toBe(1);
      expected.push(`${approval.id} escalate:0`, `${approval.id} escalate:1`, `${approval.id} expiring`);
      const { rows } = await db.pool().query(`select status, decided_by from ${APPROVALS_TABLE} where id = $1`, [approval.id]);
      expect(rows[0]).toEqual({ status: "pending", decided_by: null });
      at += 6 * MIN;
    }
    await Promise.all([a.runtime.drainAudit(), b.runtime.drainAudit()]);
    const sent = [...noticesOf(a.sent), ...noticesOf(b.sent)];
    expect(sent.sort()).toEqual([...expected].sort());
    expect([...escalationsOf(a.events), ...escalationsOf(b.events)].sort()).toEqual(expected.filter((n) => !n.endsWith("expiring")).sort());
  });

  it("SI-4: a notice claimed in the table is never sent again, by either instance; a decided row is claimed by nobody", async () => {
    let at = Date.parse("2032-01-01T00:00:00.000Z");
    const clock = { now: () => new Date(at) };
    const a = instance(clock);
    const b = instance(clock);
    const pending = approvalOf(await a.runtime.invoke("refund", { amount: 1 }, { actor: dana, context: {} }));
    const decided = approvalOf(await a.runtime.invoke("refund", { amount: 2 }, { actor: dana, context: {} }));
    await b.runtime.approvals.decide(decided.id, { status: "rejected", approver: { id: "mo", kind: "user" } });
    at += 20 * MIN;
    expect(await a.runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 0 });
    expect(await b.runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    const { rows } = await db.pool().query(`select id, notices from ${APPROVALS_TABLE} where id = any($1)`, [[pending.id, decided.id]]);
    const notices = Object.fromEntries(rows.map((r: { id: string; notices: unknown }) => [r.id, r.notices]));
    expect(Object.keys(notices[pending.id] as object)).toEqual([`escalate:${15 * MIN}`]);
    expect(notices[decided.id]).toBeNull();
  });
});
