import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createNotificationQueue } from "../../src/approvals/notify/queue.js";
import type { ApprovalNotification, ApprovalNotificationFailure } from "../../src/approvals/notify/types.js";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type ApprovalNotification as PublicNotification,
  type ApprovalNotifyOptions,
} from "../../src/index.js";

// The notifier seam (issue 50): a bounded queue delivering one notification at a time, off every call's path, and the
// runtime raising `approval.requested` and `approval.decided` through it.

const note = (id: string) => ({ approvalId: id }) as unknown as ApprovalNotification;

function queueWith(notify: (n: ApprovalNotification) => void | Promise<void>, limit = 3, timeoutMs = 1_000) {
  const undelivered: [string, ApprovalNotificationFailure][] = [];
  const work: Promise<void>[] = [];
  const queue = createNotificationQueue({ notify, limit, timeoutMs, onUndelivered: (n, reason) => void undelivered.push([n.approvalId, reason]), track: (w) => void work.push(w) });
  const settled = async () => {
    for (let i = 0; i < work.length; i++) await work[i];
  };
  return { queue, undelivered, settled };
}

describe("the notification queue", () => {
  it("delivers in order, one at a time, never inside enqueue", async () => {
    const log: string[] = [];
    let active = 0;
    const { queue, undelivered, settled } = queueWith(async (n) => {
      active++;
      log.push(`start ${n.approvalId} (${active} active)`);
      await Promise.resolve();
      active--;
    });
    queue.enqueue(note("a"));
    queue.enqueue(note("b"));
    expect(log).toEqual([]);
    await settled();
    expect(log).toEqual(["start a (1 active)", "start b (1 active)"]);
    expect(undelivered).toEqual([]);
  });

  it("drops the newest beyond the limit and reports each drop; the queued keep their order", async () => {
    const delivered: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { queue, undelivered, settled } = queueWith(async (n) => {
      await gate;
      delivered.push(n.approvalId);
    }, 2);
    queue.enqueue(note("a"));
    await Promise.resolve();
    await Promise.resolve();
    for (const id of ["b", "c", "d", "e"]) queue.enqueue(note(id));
    expect(undelivered).toEqual([
      ["d", "dropped"],
      ["e", "dropped"],
    ]);
    release();
    await settled();
    expect(delivered).toEqual(["a", "b", "c"]);
  });

  it("reports a throw, a rejection and a timeout, and keeps going", async () => {
    const { queue, undelivered, settled } = queueWith(
      (n) => {
        if (n.approvalId === "sync") throw new Error("boom");
        if (n.approvalId === "async") return Promise.reject(new Error("boom"));
        if (n.approvalId === "hang") return new Promise<void>(() => undefined);
      },
      10,
      5,
    );
    for (const id of ["sync", "async", "hang", "fine"]) queue.enqueue(note(id));
    await settled();
    expect(undelivered).toEqual([
      ["sync", "failed"],
      ["async", "failed"],
      ["hang", "timeout"],
    ]);
  });

  it("a throwing report changes nothing", async () => {
    const delivered: string[] = [];
    const work: Promise<void>[] = [];
    const queue = createNotificationQueue({
      notify: (n) => {
        if (n.approvalId === "bad") throw new Error("x");
        delivered.push(n.approvalId);
      },
      limit: 5,
      timeoutMs: 100,
      onUndelivered: () => {
        throw new Error("report failed");
      },
      track: (w) => void work.push(w),
    });
    queue.enqueue(note("bad"));
    queue.enqueue(note("good"));
    await Promise.all(work);
    expect(delivered).toEqual(["good"]);
  });
});

describe("approvals.notify on the runtime", () => {
  function setup(options: ApprovalNotifyOptions) {
    const registry = createCapabilityRegistry({
      send: agentProcedure(os)
        .meta(
          agentMeta({
            description: "Send money.",
            expose: { direct: true },
            sideEffect: "write",
            risk: "high",
            approval: { required: true, type: "finance" },
            redact: { approvalInput: (input) => ({ amount: (input as { amount: number }).amount }) },
          }),
        )
        .input(z.object({ amount: z.number().meta({ title: "Amount" }), iban: z.string() }))
        .handler(({ input }) => input.amount),
    });
    const events: AgentAuditEvent[] = [];
    const runtime = createAgentRuntime({
      governance: defineGovernance({ registry }),
      audit: (event) => void events.push(event),
      approvals: { coordinator: createInMemoryApprovalCoordinator(), ...options },
    });
    return { runtime, events };
  }

  it("raises approval.requested and approval.decided with the redacted view, the types and the progress; drainAudit waits for them", async () => {
    const received: PublicNotification[] = [];
    const { runtime } = setup({ notify: (n) => void received.push(n) });
    const result = await runtime.invoke("send", { amount: 5, iban: "DE00 SECRET" }, { actor: { id: "dana", kind: "user" }, context: {} });
    if (result.status !== "approval-required") throw new Error(result.status);
    await runtime.approvals.decide(result.approval.id, { status: "approved", approver: { id: "mo", kind: "user", displayName: "Mo" }, comment: "ok" });
    await runtime.drainAudit();
    expect(received.map((n) => [n.type, n.approvalId, n.capabilityId, n.types, n.progress.label])).toEqual([
      ["approval.requested", result.approval.id, "send", ["finance"], "0 of 1 approval"],
      ["approval.decided", result.approval.id, "send", ["finance"], "1 of 1 approval"],
    ]);
    const [requested, decided] = received;
    expect(requested!.view.input).toEqual({ shown: true, value: { amount: 5 }, fields: [{ key: "amount", label: "Amount", value: 5 }] });
    expect(requested!.view.decidableBy.open).toBe(true);
    expect(decided).toMatchObject({ vote: { status: "approved", approver: { id: "mo", kind: "user", displayName: "Mo" }, comment: "ok" }, view: { status: "approved" } });
    expect(JSON.stringify(received)).not.toContain("SECRET");
    expect(Object.isFrozen(requested)).toBe(true);
  });

  it("an undelivered notification is the audit event approval.notification_failed, with no payload", async () => {
    const { runtime, events } = setup({ notify: () => Promise.reject(new Error("DE00 SECRET")) });
    const result = await runtime.invoke("send", { amount: 5, iban: "DE00 SECRET" }, { actor: { id: "dana", kind: "user" }, context: {} });
    if (result.status !== "approval-required") throw new Error(result.status);
    await runtime.drainAudit();
    const failed = events.filter((e) => e.type === "approval.notification_failed");
    expect(failed).toEqual([
      expect.objectContaining({
        type: "approval.notification_failed",
        surface: "direct",
        actor: { id: "dana", kind: "user" },
        capabilityId: "send",
        data: { approvalId: result.approval.id, notification: "approval.requested", reason: "failed" },
      }),
    ]);
    expect(JSON.stringify(failed)).not.toContain("SECRET");
  });

  it("refuses malformed notify options at startup", () => {
    expect(() => setup({ notify: "https://hooks.example" as never })).toThrow(/approvals\.notify must be a function/);
    for (const notifyTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "10" as never]) {
      expect(() => setup({ notify: () => undefined, notifyTimeoutMs })).toThrow(/approvals\.notifyTimeoutMs/);
    }
    for (const notifyQueueLimit of [0, 1.5, -3, Number.NaN]) {
      expect(() => setup({ notify: () => undefined, notifyQueueLimit })).toThrow(/approvals\.notifyQueueLimit/);
    }
  });
});
