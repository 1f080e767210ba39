import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
  type ApprovalNotification,
  type ApprovalNotifier,
} from "../../src/index.js";

// runtime.approvals.reRequest tells approvers of the fresh approval as an invocation's request does
// (docs/guides/approvals.md#telling-approvers): `approval.requested`, through the same best-effort queue, never awaited.
const dana: Actor = { id: "u_dana", kind: "user" };
const priya: Actor = { id: "u_priya", kind: "user" };
const ops: Actor = { id: "ops_sam", kind: "user" };
// One fixed instant (the in-memory coordinator checks expiry against the wall clock, so it is now).
const AT = new Date();

function setup(notify?: ApprovalNotifier, options: { strict?: boolean; failApprovalRequested?: boolean } = {}) {
  const events: AgentAuditEvent[] = [];
  const registry = createCapabilityRegistry({
    refund: agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } }))
      .handler(({ input }) => ({ refunded: input.orderId })),
  });
  const coordinator = createInMemoryApprovalCoordinator();
  const sink = (event: AgentAuditEvent) => {
    if (options.failApprovalRequested && event.type === "capability.approval_requested" && event.data.reRequest !== undefined) return Promise.reject(new Error("audit down"));
    events.push(event);
  };
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: { coordinator, ...(notify === undefined ? {} : { notify, notifyTimeoutMs: 20 }) },
    audit: { sinks: [sink], strict: options.strict === true, onSinkError: () => {} },
    now: () => AT,
  });
  return { runtime, coordinator, events };
}

/** An approved approval consumed by an execution that never ran: the state a crash after markConsumed leaves. */
async function consumedNeverStarted(s: ReturnType<typeof setup>) {
  const requested = await s.runtime.invoke("refund", { orderId: "o1" }, { actor: dana, context: {} });
  if (requested.status !== "approval-required") throw new Error("expected approval-required");
  await s.runtime.approvals.decide(requested.approval.id, { status: "approved", approver: priya });
  await s.coordinator.markConsumed(requested.approval.id, "exe_crashed");
  return requested.approval;
}

function failures(events: AgentAuditEvent[]) {
  return events.flatMap((event) => (event.type === "approval.notification_failed" ? [event.data] : []));
}

describe("runtime.approvals.reRequest notifies approvers", () => {
  it("queues approval.requested for the fresh approval, with the view an invocation's request gets", async () => {
    const received: ApprovalNotification[] = [];
    const s = setup((notification) => void received.push(notification));
    const approval = await consumedNeverStarted(s);
    const fresh = await s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "exe_crashed never started" });
    await s.runtime.drainAudit();

    const requested = received.filter((n) => n.type === "approval.requested");
    expect(requested.map((n) => n.approvalId)).toEqual([approval.id, fresh.id]);
    const notice = requested[1]!;
    expect(notice).toMatchObject({ type: "approval.requested", capabilityId: "refund", types: ["manager"], at: AT });
    // The requester is the fresh record's, never the operator who re-requested it.
    expect(notice.view).toMatchObject({ id: fresh.id, status: "pending", requester: { id: "u_dana", kind: "user" } });
    expect(JSON.stringify(notice)).not.toContain("ops_sam");
    // Built exactly as the invocation's notice is: only the id differs.
    const { approvalId: _a, view: firstView, ...firstRest } = requested[0]!;
    const { approvalId: _b, view: freshView, ...freshRest } = notice;
    expect(freshRest).toEqual(firstRest);
    expect({ ...freshView, id: approval.id }).toEqual({ ...firstView, id: approval.id });
    expect(failures(s.events)).toEqual([]);
  });

  it("a notifier that throws, rejects or never settles leaves reRequest's answer as it is without one; each failure is audited", async () => {
    const plain = setup();
    const { id: _id, ...expected } = await plain.runtime.approvals.reRequest((await consumedNeverStarted(plain)).id, { operator: ops, reason: "x" });

    const notifiers: Record<string, ApprovalNotifier> = {
      throws: () => {
        throw new Error("Slack is down");
      },
      rejects: () => Promise.reject(new Error("webhook 500")),
      hangs: () => new Promise<void>(() => {}),
    };
    for (const [name, notify] of Object.entries(notifiers)) {
      const s = setup(notify);
      const approval = await consumedNeverStarted(s);
      const fresh = await s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "x" });
      // Every field as without a notifier; ids are random per approval, so only the `.r` derivation is compared.
      expect({ ...fresh, id: undefined }, name).toEqual({ ...expected, id: undefined });
      expect(fresh.id, name).toBe(`${approval.id}.r`);
      await s.runtime.drainAudit();
      expect(failures(s.events), name).toContainEqual({ approvalId: fresh.id, notification: "approval.requested", reason: name === "hangs" ? "timeout" : "failed" });
      // The fresh approval is as decidable and resumable as without a notifier.
      await s.runtime.approvals.decide(fresh.id, { status: "approved", approver: priya });
      expect(await s.runtime.resume(fresh.id, { context: {} }), name).toMatchObject({ status: "completed", output: { refunded: "o1" } });
    }
  });

  it("without a notifier nothing is queued and reRequest answers as before", async () => {
    const s = setup();
    const approval = await consumedNeverStarted(s);
    const fresh = await s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "x" });
    await s.runtime.drainAudit();
    expect(fresh).toMatchObject({ id: `${approval.id}.r`, status: "pending" });
    expect(failures(s.events)).toEqual([]);
  });

  it("in strict audit mode a failed audit write still rejects the re-request, and approvers have heard of the pending record", async () => {
    const received: ApprovalNotification[] = [];
    const s = setup((notification) => void received.push(notification), { strict: true, failApprovalRequested: true });
    const approval = await consumedNeverStarted(s);
    await expect(s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "x" })).rejects.toThrow("audit down");
    await s.runtime.drainAudit();
    expect(await s.runtime.approvals.get(`${approval.id}.r`)).toMatchObject({ status: "pending" });
    expect(received.filter((n) => n.type === "approval.requested").map((n) => n.approvalId)).toEqual([approval.id, `${approval.id}.r`]);
  });
});
