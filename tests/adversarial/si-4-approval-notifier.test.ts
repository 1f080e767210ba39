// Approval notifications (issue 50; docs/guides/approvals.md#telling-approvers): a notifier is best effort and never
// on the call's path. Whatever it does (throw, reject, hang, crawl while thousands of approvals are asked
// for, edit what it is handed, decide re-entrantly) changes no decision (SI-4) and no answer; it only ever sees the
// input through `redact.approvalInput` (SI-10); its queue is bounded and what it drops is recorded (SI-12).
import {
  createInMemoryApprovalCoordinator,
  type Actor,
  type AgentAuditEvent,
  type AgentRuntime,
  type ApprovalNotification,
  type ApprovalNotifier,
} from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

const SECRET = "sentinel-notifier-4f2e";
const ana: Actor = Object.freeze({ id: "ana", kind: "user" });

/** A refund behind an approval whose approvers see the order and amount only, never `note`. */
function refund(extra: { quorum?: number; redact?: (input: unknown) => unknown } = {}) {
  const ran: unknown[] = [];
  const procedure = base
    .meta({
      agent: meta({
        approval: { required: true, ...(extra.quorum === undefined ? {} : { quorum: extra.quorum }) },
        redact: { approvalInput: extra.redact ?? ((input) => ({ orderId: (input as { orderId: string }).orderId, amount: (input as { amount: number }).amount })) },
      }),
    })
    .input(z.object({ orderId: z.string(), amount: z.number(), note: z.string() }))
    .handler(({ input }) => (ran.push(input), { refunded: input.amount }));
  return { procedure, ran };
}

function runtimeWith(notify: ApprovalNotifier, options: { quorum?: number; redact?: (input: unknown) => unknown; notifyTimeoutMs?: number; notifyQueueLimit?: number } = {}) {
  const cap = refund(options);
  const { runtime, events } = build({
    defs: { refund: cap.procedure },
    approvals: {
      coordinator: createInMemoryApprovalCoordinator(),
      notify,
      ...(options.notifyTimeoutMs === undefined ? {} : { notifyTimeoutMs: options.notifyTimeoutMs }),
      ...(options.notifyQueueLimit === undefined ? {} : { notifyQueueLimit: options.notifyQueueLimit }),
    },
  });
  return { runtime, events, ran: cap.ran };
}

const INPUT = Object.freeze({ orderId: "o_1", amount: 320, note: SECRET });

function failures(events: AgentAuditEvent[]) {
  return events.flatMap((event) => (event.type === "approval.notification_failed" ? [event.data] : []));
}

/** Request, approve as mo, resume: the answers a runtime gives with or without a notifier. */
async function requestApproveResume(runtime: AgentRuntime) {
  const approval = approvalOf(await runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
  const decided = await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
  const resumed = await runtime.resume(approval.id, { context: {} });
  return { approval, decided, resumed };
}

describe("approval notifier attacks (SI-4, SI-10, SI-12)", () => {
  it("SI-4: a notifier that throws synchronously changes no answer and no decision; each failure is audited", async () => {
    const { runtime, events, ran } = runtimeWith(() => {
      throw new Error("Slack is down");
    });
    const { approval, decided, resumed } = await requestApproveResume(runtime);
    expect(approval.status).toBe("pending");
    expect(decided.status).toBe("approved");
    expect(resumed).toMatchObject({ status: "completed", output: { refunded: 320 } });
    expect(ran).toEqual([{ orderId: "o_1", amount: 320, note: SECRET }]);
    await runtime.drainAudit();
    expect(failures(events)).toEqual([
      { approvalId: approval.id, notification: "approval.requested", reason: "failed" },
      { approvalId: approval.id, notification: "approval.decided", reason: "failed" },
    ]);
    // The failure is recorded as its own event: the decision events stand unchanged.
    expect(events.filter((e) => e.type === "capability.approved").map((e) => e.actor.id)).toEqual(["mo"]);
    expect(events.find((e) => e.type === "approval.notification_failed" && e.data.notification === "approval.decided")?.actor).toEqual({ id: "mo", kind: "user" });
  });

  it("SI-4: a notifier that rejects changes no answer and no decision; each failure is audited", async () => {
    const { runtime, events } = runtimeWith(async () => {
      throw new Error("webhook answered 500");
    });
    const { approval, decided, resumed } = await requestApproveResume(runtime);
    expect(decided.status).toBe("approved");
    expect(resumed.status).toBe("completed");
    await runtime.drainAudit();
    expect(failures(events).map((f) => [f.approvalId, f.notification, f.reason])).toEqual([
      [approval.id, "approval.requested", "failed"],
      [approval.id, "approval.decided", "failed"],
    ]);
  });

  it("SI-12: a notifier that never settles holds up neither the call nor the decision; each delivery times out and is audited", async () => {
    const seen: string[] = [];
    const { runtime, events } = runtimeWith(
      (notification) => {
        seen.push(notification.type);
        return new Promise<void>(() => undefined);
      },
      { notifyTimeoutMs: 5 },
    );
    // Were either awaited, this would never resolve.
    const { approval, decided, resumed } = await requestApproveResume(runtime);
    expect(decided.status).toBe("approved");
    expect(resumed.status).toBe("completed");
    await runtime.drainAudit();
    expect(seen).toEqual(["approval.requested", "approval.decided"]);
    expect(failures(events)).toEqual([
      { approvalId: approval.id, notification: "approval.requested", reason: "timeout" },
      { approvalId: approval.id, notification: "approval.decided", reason: "timeout" },
    ]);
  });

  it("SI-12: a stalled notifier while 5 000 approvals are requested: every answer unchanged, the queue holds 1 000, every drop audited", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const delivered: string[] = [];
    const { runtime, events } = runtimeWith(async (notification) => {
      await gate;
      delivered.push(notification.approvalId);
    });
    const ids: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const result = await runtime.invoke("refund", { ...INPUT, orderId: `o_${i}` }, { actor: dana, context: {} });
      ids.push(approvalOf(result).id);
    }
    // Every call answered while the first delivery still waits: none of them waited for it.
    expect(ids).toHaveLength(5_000);
    expect(delivered).toEqual([]);
    // One delivery in flight, 1 000 queued (the documented bound), the 3 999 newest dropped and recorded as dropped.
    const dropped = failures(events);
    expect(dropped).toHaveLength(3_999);
    expect(dropped.every((f) => f.reason === "dropped" && f.notification === "approval.requested")).toBe(true);
    expect(dropped.map((f) => f.approvalId)).toEqual(ids.slice(1_001));

    release();
    await runtime.drainAudit({ timeoutMs: 60_000 });
    // What was queued is delivered in order; nothing dropped arrives later.
    expect(delivered).toEqual(ids.slice(0, 1_001));
    expect(failures(events)).toHaveLength(3_999);
  });

  it("SI-4: a notifier that edits what it is handed cannot: every notification is deep-frozen, and the record and execution keep their input", async () => {
    const attempts: string[] = [];
    const notifier: ApprovalNotifier = (notification) => {
      const tries: [string, () => void][] = [
        ["approvalId", () => ((notification as { approvalId: string }).approvalId = "apr_other")],
        ["view.input", () => ((notification.view.input as { value: { amount: number } }).value.amount = 1)],
        ["view.types", () => (notification.view.types as string[]).push("nobody")],
        ["decidableBy", () => ((notification.view.decidableBy as { open: boolean }).open = true)],
        ["counted", () => (notification.view.decidableBy.counted as string[]).push("mo")],
        ["requester", () => ((notification.view.requester as { id: string }).id = "mo")],
        ["progress", () => ((notification.progress as { remaining: number }).remaining = 0)],
      ];
      for (const [name, attempt] of tries) {
        try {
          attempt();
          attempts.push(`${name}: changed`);
        } catch {
          attempts.push(`${name}: refused`);
        }
      }
      // A date is a copy: moving it moves nothing the runtime keeps.
      notification.view.expiresAt.setTime(0);
    };
    const { runtime, ran } = runtimeWith(notifier);
    const approval = approvalOf(await runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
    await runtime.drainAudit();
    expect(attempts.every((line) => line.endsWith("refused"))).toBe(true);
    const stored = (await runtime.approvals.get(approval.id))!;
    expect(stored.input).toEqual(INPUT);
    expect(stored.expiresAt.getTime()).toBe(approval.expiresAt.getTime());
    expect(stored.status).toBe("pending");
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect((await runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(ran).toEqual([{ orderId: "o_1", amount: 320, note: SECRET }]);
  });

  it("SI-10: no notification ever carries what redact.approvalInput hides, through a quorum, a comment, a rejection and a failing hook", async () => {
    const received: ApprovalNotification[] = [];
    const { runtime, events } = runtimeWith((notification) => void received.push(notification), { quorum: 2 });
    const first = approvalOf(await runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
    await runtime.approvals.decide(first.id, { status: "approved", approver: mo, comment: "fine by me" });
    await runtime.approvals.decide(first.id, { status: "approved", approver: ana });
    const second = approvalOf(await runtime.invoke("refund", { ...INPUT, orderId: "o_2" }, { actor: dana, context: {} }));
    await runtime.approvals.decide(second.id, { status: "rejected", approver: mo });
    await runtime.drainAudit();
    expect(received.map((n) => n.type)).toEqual(["approval.requested", "approval.decided", "approval.decided", "approval.requested", "approval.decided"]);
    for (const notification of received) {
      expect(JSON.stringify(notification)).not.toContain(SECRET);
      expect(notification.view.input).toMatchObject({ shown: true });
      expect(notification.view.input.shown && notification.view.input.fields.map((f) => f.key)).toEqual(["orderId", "amount"]);
    }
    expect(received[1]!.progress.label).toBe("1 of 2 approvals");
    expect(received[2]!.view.status).toBe("approved");
    expect(JSON.stringify(events)).not.toContain(SECRET);

    // Approved with changes: the edit is shown through the same hook, so what it hides stays hidden.
    const edited: ApprovalNotification[] = [];
    const single = runtimeWith((notification) => void edited.push(notification));
    const third = approvalOf(await single.runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
    await single.runtime.approvals.decide(third.id, { status: "approved", approver: mo, input: { orderId: "o_1", amount: 100, note: `${SECRET}-edit` } });
    await single.runtime.drainAudit();
    expect(edited.map((n) => n.type)).toEqual(["approval.requested", "approval.decided"]);
    expect(edited[1]!.view.decision?.editedInput).toEqual({ shown: true, value: { orderId: "o_1", amount: 100 }, fields: expect.any(Array) });
    expect(JSON.stringify(edited)).not.toContain(SECRET);

    // A hook that throws: the input is withheld, never shown raw; the call is answered as before.
    const seen: ApprovalNotification[] = [];
    const failing = runtimeWith((notification) => void seen.push(notification), {
      redact: () => {
        throw new Error("cannot redact");
      },
    });
    const approval = approvalOf(await failing.runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
    expect(approval.status).toBe("pending");
    await failing.runtime.drainAudit();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.view.input).toEqual({ shown: false, reason: "redaction-failed" });
    expect(JSON.stringify(seen)).not.toContain(SECRET);

    // A hook that hands back the stored input itself still hides nothing it did not mean to, and freezes none of it.
    const identity = runtimeWith(() => undefined, { redact: (input) => input });
    const own = approvalOf(await identity.runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
    await identity.runtime.drainAudit();
    await identity.runtime.approvals.decide(own.id, { status: "approved", approver: mo });
    expect((await identity.runtime.resume(own.id, { context: {} })).status).toBe("completed");
  });

  it("SI-4: a notifier that decides re-entrantly goes through every guard: the requester is refused, an approver decides once, nothing deadlocks", async () => {
    const outcomes: string[] = [];
    let runtime!: AgentRuntime;
    const built = runtimeWith(async (notification) => {
      outcomes.push(`${notification.type} ${notification.view.status}`);
      const attempt = async (approver: Actor) => {
        try {
          const record = await runtime.approvals.decide(notification.approvalId, { status: "approved", approver });
          outcomes.push(`${approver.id}: ${record.status}`);
        } catch (error) {
          outcomes.push(`${approver.id}: ${(error as { code?: string }).code}`);
        }
      };
      if (notification.type === "approval.requested") {
        await attempt(dana);
        await attempt(mo);
      } else {
        await attempt(ana);
      }
    });
    runtime = built.runtime;
    const approval = approvalOf(await runtime.invoke("refund", INPUT, { actor: dana, context: {} }));
    expect(approval.status).toBe("pending");
    await runtime.drainAudit();
    expect(outcomes).toEqual([
      "approval.requested pending",
      "dana: APPROVAL_SELF_APPROVAL",
      "mo: approved",
      "approval.decided approved",
      "ana: APPROVAL_ALREADY_DECIDED",
    ]);
    expect(built.events.filter((e) => e.type === "capability.approved").map((e) => e.actor.id)).toEqual(["mo"]);
    expect((await runtime.resume(approval.id, { context: {} })).status).toBe("completed");
    expect(errorOf(await runtime.resume(approval.id, { context: {} })).code).toBe("APPROVAL_CONSUMED");
    expect(built.ran).toHaveLength(1);
  });
});
