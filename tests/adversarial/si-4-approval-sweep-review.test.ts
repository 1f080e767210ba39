// Review of the sweep (issue 50, item 4) against rows edited in the table: the `notices` column set to something that is
// not an object of claimed keys (an array, a scalar, JSON null, a huge array). The claim is a compare-and-set on that
// column; if a garbage value made every claim succeed, each sweep would send the same escalation again, for ever. A
// sweep must neither throw for every approval nor send a notice twice; it still changes no status (SI-4).
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { ApprovalNotification } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, meta } from "./support/runtime.js";
import { APPROVALS_TABLE, useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_sweep_review");
const MIN = 60_000;

function instance(clock: { now(): Date }) {
  const sent: ApprovalNotification[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, expiresInMs: 60 * MIN, escalate: [{ afterMs: 15 * MIN, to: ["team-lead"] }] } }) })
    .input(z.object({ amount: z.number() }))
    .handler(() => "refunded");
  const coordinator = createPgApprovalCoordinator({ query: db.query, now: clock.now });
  const { runtime } = build({ defs: { refund }, now: clock.now, approvals: { coordinator, seal: false, notify: (n) => void sent.push(n) } });
  return { runtime, sent };
}

const noticesOf = (sent: ApprovalNotification[]) =>
  sent.flatMap((n) => (n.type === "approval.escalated" ? [`${n.approvalId} escalate:${n.step}`] : n.type === "approval.expiring" ? [`${n.approvalId} expiring`] : []));

describe("approval sweep over edited rows (SI-4)", () => {
  it("SI-4: a notices column edited to an array, a scalar, JSON null or a huge array never makes a sweep send a notice twice", async () => {
    let at = Date.parse("2033-03-03T03:00:00.000Z");
    const clock = { now: () => new Date(at) };
    const a = instance(clock);
    const b = instance(clock);
    const garbage = ["[1, 2]", '"junk"', "null", "5", "true", "(select jsonb_agg(g) from generate_series(1, 5000) g)"];
    const ids: string[] = [];
    for (let i = 0; i < garbage.length; i++) ids.push(approvalOf(await a.runtime.invoke("refund", { amount: i + 1 }, { actor: dana, context: {} })).id);
    for (const [i, value] of garbage.entries()) {
      const literal = value.startsWith("(") ? value : `'${value}'::jsonb`;
      await db.pool().query(`update ${APPROVALS_TABLE} set notices = ${literal} where id = $1`, [ids[i]]);
    }
    at += 20 * MIN;
    // Three rounds at the same instant, on two instances: each due escalation is sent once in all.
    for (let round = 0; round < 3; round++) {
      await Promise.all([a.runtime.approvals.sweep(), b.runtime.approvals.sweep()]);
    }
    at += 30 * MIN;
    await Promise.all([a.runtime.approvals.sweep(), b.runtime.approvals.sweep()]);
    const sent = [...noticesOf(a.sent), ...noticesOf(b.sent)].filter((n) => !n.endsWith("expiring"));
    expect(sent.sort()).toEqual(ids.map((id) => `${id} escalate:0`).sort());
    const { rows } = await db.pool().query(`select status from ${APPROVALS_TABLE} where id = any($1)`, [ids]);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(ids.map(() => "pending"));
    // Nothing grows without bound: what the table keeps of a claim is one key per notice.
    const { rows: kept } = await db.pool().query(`select pg_column_size(notices) as size from ${APPROVALS_TABLE} where id = any($1)`, [ids]);
    for (const row of kept as { size: number }[]) expect(row.size).toBeLessThan(1024);
  });

  it("SI-4: one row whose votes were edited into garbage does not stop the sweep telling anyone of the other approvals", async () => {
    let at = Date.parse("2035-05-05T05:00:00.000Z");
    const clock = { now: () => new Date(at) };
    const a = instance(clock);
    const healthy = approvalOf(await a.runtime.invoke("refund", { amount: 1 }, { actor: dana, context: {} })).id;
    const broken: string[] = [];
    for (const votes of ["{}", "[null]", '"junk"', "[1]"]) {
      const id = approvalOf(await a.runtime.invoke("refund", { amount: 2 }, { actor: dana, context: {} })).id;
      await db.pool().query(`update ${APPROVALS_TABLE} set quorum = 2, approvals = $2::jsonb where id = $1`, [id, votes]);
      broken.push(id);
    }
    at += 20 * MIN;
    const swept = await a.runtime.approvals.sweep();
    expect(swept.escalated).toBeGreaterThanOrEqual(1);
    expect(noticesOf(a.sent)).toContain(`${healthy} escalate:0`);
    // The edited rows are never counted as approved by it.
    const { rows } = await db.pool().query(`select status from ${APPROVALS_TABLE} where id = any($1)`, [broken]);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(broken.map(() => "pending"));
    // Nor can anyone decide one through the runtime.
    const refused = await a.runtime.approvals.decide(broken[0]!, { status: "approved", approver: { id: "mo", kind: "user" } }).then(
      () => undefined,
      (e: unknown) => (e as { code?: string }).code,
    );
    expect(refused).toBe("INTERNAL_ERROR");
    await db.pool().query(`delete from ${APPROVALS_TABLE} where id = any($1)`, [broken]);
  });

  it("SI-4: a sweep handed an invalid Date, or no Date, is INPUT_INVALID and claims nothing", async () => {
    const at = Date.parse("2034-04-04T04:00:00.000Z");
    const clock = { now: () => new Date(at + 20 * MIN) };
    const a = instance({ now: () => new Date(at) });
    const approval = approvalOf(await a.runtime.invoke("refund", { amount: 1 }, { actor: dana, context: {} }));
    for (const now of [new Date(Number.NaN), "2034-04-04T05:00:00.000Z", Date.now(), null]) {
      const error = await a.runtime.approvals.sweep({ now: now as never }).then(
        () => undefined,
        (e: unknown) => e as { code?: string },
      );
      expect(error?.code).toBe("INPUT_INVALID");
    }
    expect(noticesOf(a.sent)).toEqual([]);
    const { rows } = await db.pool().query(`select notices from ${APPROVALS_TABLE} where id = $1`, [approval.id]);
    expect(rows[0].notices).toBeNull();
    // The same instance swept later with a valid instant still sends the escalation.
    expect(await a.runtime.approvals.sweep({ now: clock.now() })).toEqual({ escalated: 1, expiring: 0 });
  });
});
