// SI-4 / SI-10: adversarial review of the notifier seam (issue 50, item 1). A notification is handed to app code, off
// the call's path: nothing the notifier does to what it receives may change a decision, a sweep, the audit evidence or
// the caller's own objects. Dates cannot be frozen, so each notification must carry its own.
import { createInMemoryApprovalCoordinator, type AgentAuditEvent, type ApprovalNotification, type ApprovalNotifier } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, meta } from "./support/runtime.js";

const MIN = 60_000;

function app(notify: ApprovalNotifier) {
  let at = Date.parse("2031-05-06T07:00:00.000Z");
  const clock = { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
  const refund = base
    .meta({ agent: meta({ approval: { required: true, expiresInMs: 60 * MIN, escalate: [{ afterMs: 15 * MIN, to: ["team-lead"] }] } }) })
    .input(z.object({ amount: z.number() }))
    .handler(() => "refunded");
  const { runtime, events } = build({
    defs: { refund },
    now: clock.now,
    approvals: { coordinator: createInMemoryApprovalCoordinator({ now: clock.now }), notify, expiryWarningMs: false },
  });
  const requestRefund = async () => approvalOf(await runtime.invoke("refund", { amount: 320 }, { actor: dana, context: {} }));
  return { runtime, events, clock, requestRefund };
}

/** Moves every Date a notification carries to the epoch, as a careless or hostile notifier might. */
const rewindDates: ApprovalNotifier = (notification: ApprovalNotification) => {
  notification.at.setTime(0);
};

describe("notifier seam review (SI-4, SI-10)", () => {
  it("SI-4: a notifier that rewrites notification.at changes neither the audit event of the escalation nor the sweep's instant", async () => {
    const { runtime, events, clock, requestRefund } = app(rewindDates);
    await requestRefund();
    clock.advance(20 * MIN);
    const sweptAt = clock.now().getTime();
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 0 });
    await runtime.drainAudit();
    const escalated = events.filter((e: AgentAuditEvent) => e.type === "approval.escalated");
    expect(escalated).toHaveLength(1);
    expect(escalated[0]!.timestamp.getTime()).toBe(sweptAt);
  });

  it("SI-4: a notifier cannot rewrite the Date the app handed to sweep({ now })", async () => {
    const { runtime, clock, requestRefund } = app(rewindDates);
    await requestRefund();
    const now = new Date(clock.now().getTime() + 20 * MIN);
    const given = now.getTime();
    expect(await runtime.approvals.sweep({ now })).toEqual({ escalated: 1, expiring: 0 });
    await runtime.drainAudit();
    expect(now.getTime()).toBe(given);
  });

  it("SI-4: a notifier deciding re-entrantly with an edit changes nothing the call answered; the edit is bound as any other and runs on resume", async () => {
    const priya = { id: "priya", kind: "user" } as const;
    let runtimeRef: { approvals: { decide: (id: string, d: unknown) => Promise<unknown> } } | undefined;
    const decided: unknown[] = [];
    const { runtime, requestRefund } = app(async (notification) => {
      if (notification.type !== "approval.requested") return;
      decided.push(await runtimeRef!.approvals.decide(notification.approvalId, { status: "approved", approver: priya, input: { amount: 80 } }).catch((e: { code: string }) => e.code));
    });
    runtimeRef = runtime as never;
    const approval = await requestRefund();
    expect(approval.status).toBe("pending");
    await runtime.drainAudit();
    expect(decided).toHaveLength(1);
    expect(await runtime.resume(approval.id, { context: {}, expectedActor: dana })).toMatchObject({ status: "completed", approvedWithChanges: { changed: ["/amount"] } });
  });
});

