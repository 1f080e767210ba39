// Escalation and expiry warnings (issue 50, item 4; docs/guides/notifying-approvers.md#escalation-and-expiry-warnings):
// `runtime.approvals.sweep()` only ever tells people. Whatever it finds (a decided, expired or consumed approval, a
// notifier that throws, a sweep run at a later instant than the store's clock) it decides nothing and changes no status
// (SI-4); it tells only of pending approvals, each notice at most once, and only through the redacted view (SI-10).
import {
  createInMemoryApprovalCoordinator,
  type Actor,
  type AgentAuditEvent,
  type ApprovalCoordinator,
  type ApprovalNotification,
  type ApprovalNotifier,
} from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

const MIN = 60_000;
const SECRET = "sentinel-sweep-9c1d";
const ESCALATE = [
  { afterMs: 15 * MIN, to: ["team-lead"] },
  { afterMs: 30 * MIN, to: ["head-of-support", "#approvals"] },
];

function clockAt(iso = "2031-05-06T07:00:00.000Z") {
  let at = Date.parse(iso);
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

/** A refund that escalates twice within its hour, and an export that declares no escalation. */
function app(options: { notify?: ApprovalNotifier; coordinator?: ApprovalCoordinator; expiryWarningMs?: number | false } = {}) {
  const clock = clockAt();
  const sent: ApprovalNotification[] = [];
  const ran: unknown[] = [];
  const refund = base
    .meta({
      agent: meta({
        approval: { required: true, expiresInMs: 60 * MIN, escalate: ESCALATE },
        redact: { approvalInput: (input) => ({ amount: (input as { amount: number }).amount }) },
      }),
    })
    .input(z.object({ amount: z.number(), note: z.string() }))
    .handler(({ input }) => (ran.push(input), "refunded"));
  const exportData = base
    .meta({ agent: meta({ approval: { required: true, expiresInMs: 60 * MIN } }) })
    .input(z.object({ table: z.string() }))
    .handler(() => "exported");
  const { runtime, events } = build({
    defs: { refund, exportData },
    now: clock.now,
    approvals: {
      coordinator: options.coordinator ?? createInMemoryApprovalCoordinator({ now: clock.now }),
      notify: options.notify ?? ((notification) => void sent.push(notification)),
      ...(options.expiryWarningMs === undefined ? {} : { expiryWarningMs: options.expiryWarningMs }),
    },
  });
  const requestRefund = async () => approvalOf(await runtime.invoke("refund", { amount: 320, note: SECRET }, { actor: dana, context: {} }));
  const swept = (type: ApprovalNotification["type"]) => sent.filter((n) => n.type === type);
  return { runtime, events, clock, sent, ran, requestRefund, swept };
}

const sweepsOf = (events: AgentAuditEvent[]) => events.flatMap((e) => (e.type === "approval.escalated" ? [e.data] : []));

describe("approval sweep attacks (SI-4, SI-10)", () => {
  it("SI-4: a sweep sends nothing for an approved, rejected, expired or consumed approval, and changes none of them", async () => {
    const { runtime, clock, sent, requestRefund } = app();
    const approved = await requestRefund();
    const rejected = await requestRefund();
    const consumed = await requestRefund();
    await runtime.approvals.decide(approved.id, { status: "approved", approver: mo });
    await runtime.approvals.decide(rejected.id, { status: "rejected", approver: mo });
    await runtime.approvals.decide(consumed.id, { status: "approved", approver: mo });
    expect(await runtime.resume(consumed.id, { context: {} })).toMatchObject({ status: "completed" });
    clock.advance(55 * MIN);
    await runtime.drainAudit();
    sent.length = 0;
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });

    const expired = await requestRefund();
    clock.advance(60 * MIN + 1);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    await runtime.drainAudit();
    expect(sent.filter((n) => n.type !== "approval.requested")).toEqual([]);
    const statuses = await Promise.all([approved, rejected, consumed, expired].map(async (a) => (await runtime.approvals.get(a.id))!.status));
    expect(statuses).toEqual(["approved", "rejected", "consumed", "expired"]);
  });

  it("SI-4: a sweep at an instant past expiry sends nothing, even while the store's own clock still reads the approval pending", async () => {
    const { runtime, sent, requestRefund } = app();
    const approval = await requestRefund();
    const late = new Date(approval.expiresAt.getTime() + 1);
    expect(await runtime.approvals.sweep({ now: late })).toEqual({ escalated: 0, expiring: 0 });
    // Still pending on the store's clock, so a sweep at exactly expiresAt (strict) sends what is due, once.
    expect(await runtime.approvals.sweep({ now: approval.expiresAt })).toEqual({ escalated: 2, expiring: 1 });
    await runtime.drainAudit();
    expect(sent.map((n) => n.type)).toEqual(["approval.requested", "approval.escalated", "approval.escalated", "approval.expiring"]);
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");
  });

  it("SI-4: a notifier that throws during a sweep changes nothing; the claim stays claimed (at most once) and the failure is audited", async () => {
    const tried: string[] = [];
    const { runtime, events, clock, ran, requestRefund } = app({
      notify: (notification) => {
        tried.push(notification.type);
        if (notification.type !== "approval.requested") throw new Error("Slack is down");
      },
    });
    const approval = await requestRefund();
    clock.advance(55 * MIN);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 2, expiring: 1 });
    await runtime.drainAudit();
    // The record is as it was: pending, undecided, and still decided and resumed as usual.
    const record = (await runtime.approvals.get(approval.id))!;
    expect(record.status).toBe("pending");
    expect(record.decision).toBeUndefined();
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_PENDING");
    // Best effort, at most once: the failed notices are not sent again.
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    await runtime.drainAudit();
    expect(tried).toEqual(["approval.requested", "approval.escalated", "approval.escalated", "approval.expiring"]);
    expect(events.flatMap((e) => (e.type === "approval.notification_failed" ? [[e.data.notification, e.data.reason]] : []))).toEqual([
      ["approval.escalated", "failed"],
      ["approval.escalated", "failed"],
      ["approval.expiring", "failed"],
    ]);
    // The escalation itself happened and is evidence, whatever the notifier did.
    expect(sweepsOf(events)).toEqual([
      { approvalId: approval.id, step: 0, afterMs: 15 * MIN, to: ["team-lead"] },
      { approvalId: approval.id, step: 1, afterMs: 30 * MIN, to: ["head-of-support", "#approvals"] },
    ]);
    expect((await runtime.approvals.decide(approval.id, { status: "approved", approver: mo })).status).toBe("approved");
    expect(await runtime.resume(approval.id, { context: {} })).toMatchObject({ status: "completed" });
    expect(ran).toHaveLength(1);
  });

  it("SI-4: an approval of another capability without escalate gets only the expiry warning", async () => {
    const { runtime, clock, swept, events } = app();
    const approval = approvalOf(await runtime.invoke("exportData", { table: "customers" }, { actor: dana, context: {} }));
    clock.advance(49 * MIN);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    clock.advance(1 * MIN);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 1 });
    await runtime.drainAudit();
    expect(swept("approval.escalated")).toEqual([]);
    expect(swept("approval.expiring")).toMatchObject([{ approvalId: approval.id, capabilityId: "exportData", expiresInMs: 10 * MIN }]);
    expect(sweepsOf(events)).toEqual([]);
  });

  it("SI-4: each step is sent when due and once; expiryWarningMs: false sends no warning", async () => {
    const { runtime, clock, swept, requestRefund } = app({ expiryWarningMs: false });
    const approval = await requestRefund();
    clock.advance(15 * MIN - 1);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    clock.advance(1);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 0 });
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    clock.advance(45 * MIN);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 0 });
    await runtime.drainAudit();
    expect(swept("approval.escalated").map((n) => n.type === "approval.escalated" && [n.approvalId, n.step, n.afterMs, n.to])).toEqual([
      [approval.id, 0, 15 * MIN, ["team-lead"]],
      [approval.id, 1, 30 * MIN, ["head-of-support", "#approvals"]],
    ]);
    expect(swept("approval.expiring")).toEqual([]);
  });

  it("SI-10: an escalation carries the redacted view, never the stored input", async () => {
    const { runtime, clock, swept, requestRefund } = app();
    await requestRefund();
    clock.advance(55 * MIN);
    await runtime.approvals.sweep();
    await runtime.drainAudit();
    const notices = [...swept("approval.escalated"), ...swept("approval.expiring")];
    expect(notices).toHaveLength(3);
    for (const notice of notices) {
      expect(JSON.stringify(notice)).not.toContain(SECRET);
      expect(Object.isFrozen(notice)).toBe(true);
    }
  });

  it("SI-4: a coordinator without list or claimNotice cannot sweep (APPROVAL_SWEEP_UNSUPPORTED), and nothing is sent", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const withoutClaim: ApprovalCoordinator = {
      create: (r) => inner.create(r),
      get: (id) => inner.get(id),
      decide: (id, d) => inner.decide(id, d),
      markConsumed: (id, e) => inner.markConsumed(id, e),
      list: (f) => inner.list(f),
    };
    const { list: _list, ...withoutList } = withoutClaim;
    for (const coordinator of [withoutClaim, { ...withoutList, claimNotice: (id: string, n: string, at: Date) => inner.claimNotice(id, n, at) }]) {
      const { runtime, sent } = app({ coordinator });
      await expect(runtime.approvals.sweep()).rejects.toMatchObject({ name: "CapabilityError", code: "APPROVAL_SWEEP_UNSUPPORTED" });
      expect(sent).toEqual([]);
    }
  });

  it("SI-4: a sweep never lets the requester or anyone else decide: a forged escalation target is only a name", async () => {
    const teamLead: Actor = { id: "team-lead", kind: "user" };
    const { runtime, clock, requestRefund } = app();
    const approval = await requestRefund();
    clock.advance(20 * MIN);
    await runtime.approvals.sweep();
    // Being named in `to` confers nothing: the same SI-4 rules decide, and the requester still cannot.
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: dana })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    expect((await runtime.approvals.decide(approval.id, { status: "approved", approver: teamLead })).status).toBe("approved");
  });
});
