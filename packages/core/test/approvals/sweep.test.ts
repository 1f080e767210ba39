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
  type AgentRuntimeOptions,
  type ApprovalNotification,
  type ExecutionResult,
} from "../../src/index.js";

// runtime.approvals.sweep: escalation and expiry warnings, sent once each, on the app's schedule.
const MIN = 60_000;
const dana: Actor = { id: "u_dana", kind: "user" };
const KEY = { id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" };

function setup(approvals: AgentRuntimeOptions["approvals"] = {}) {
  let at = Date.parse("2031-01-01T00:00:00.000Z");
  const now = () => new Date(at);
  const events: AgentAuditEvent[] = [];
  const sent: ApprovalNotification[] = [];
  const registry = createCapabilityRegistry({
    refund: agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(
        agentMeta({
          description: "Refund.",
          expose: { direct: true },
          sideEffect: "write",
          risk: "high",
          approval: { required: true, expiresInMs: 60 * MIN, escalate: [{ afterMs: 20 * MIN, to: ["team-lead", "#refunds"] }] },
        }),
      )
      .handler(({ input }) => ({ refunded: input.orderId })),
  });
  const coordinator = createInMemoryApprovalCoordinator({ now });
  const options = (extra: AgentRuntimeOptions["approvals"]) => ({
    governance: defineGovernance({ registry }),
    now,
    audit: (event: AgentAuditEvent) => void events.push(event),
    approvals: { coordinator, notify: (n: ApprovalNotification) => void sent.push(n), ...extra },
  });
  const runtime = createAgentRuntime(options(approvals));
  const request = async () => approvalIdOf(await runtime.invoke("refund", { orderId: "o_1" }, { actor: dana, context: {} }));
  return { runtime, coordinator, events, sent, request, advance: (ms: number) => void (at += ms), options, now };
}

function approvalIdOf(result: ExecutionResult): string {
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return result.approval.id;
}

describe("runtime.approvals.sweep", () => {
  it("an escalation names the step, its afterMs and to, with the approval's view; a warning says how long is left", async () => {
    const { runtime, sent, request, advance } = setup();
    const id = await request();
    advance(52 * MIN);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 1 });
    await runtime.drainAudit();
    const [escalated, expiring] = sent.slice(1);
    expect(escalated).toMatchObject({ type: "approval.escalated", approvalId: id, capabilityId: "refund", step: 0, afterMs: 20 * MIN, to: ["team-lead", "#refunds"] });
    expect(escalated!.view).toMatchObject({ id, status: "pending", requester: { id: "u_dana" } });
    expect(Object.isFrozen((escalated as { to: unknown }).to)).toBe(true);
    expect(expiring).toMatchObject({ type: "approval.expiring", approvalId: id, expiresInMs: 8 * MIN });
    expect(expiring!.at.getTime()).toBe(escalated!.at.getTime());
  });

  it("records each escalation as approval.escalated, the requester as actor; a warning is not audited", async () => {
    const { runtime, events, request, advance } = setup();
    const id = await request();
    advance(55 * MIN);
    await runtime.approvals.sweep();
    await runtime.drainAudit();
    const escalated = events.filter((e) => e.type === "approval.escalated");
    expect(escalated).toEqual([
      expect.objectContaining({ type: "approval.escalated", actor: { id: "u_dana", kind: "user" }, capabilityId: "refund", data: { approvalId: id, step: 0, afterMs: 20 * MIN, to: ["team-lead", "#refunds"] } }),
    ]);
    expect(escalated[0]).not.toHaveProperty("executionId");
  });

  it("uses sweep's now when given; refuses one that is not a valid Date", async () => {
    const { runtime, request, now } = setup();
    await request();
    expect(await runtime.approvals.sweep({ now: new Date(now().getTime() + 25 * MIN) })).toEqual({ escalated: 1, expiring: 0 });
    await expect(runtime.approvals.sweep({ now: new Date(Number.NaN) })).rejects.toMatchObject({ code: "INPUT_INVALID" });
    await expect(runtime.approvals.sweep({ now: "tomorrow" as never })).rejects.toMatchObject({ code: "INPUT_INVALID" });
  });

  it("without a notifier claims nothing, so a runtime with one later still sends what is due", async () => {
    const { request, advance, options } = setup();
    await request();
    advance(55 * MIN);
    const silent = createAgentRuntime(options({ notify: undefined }));
    expect(await silent.approvals.sweep()).toEqual({ escalated: 0, expiring: 0 });
    expect(await createAgentRuntime(options({})).approvals.sweep()).toEqual({ escalated: 1, expiring: 1 });
  });

  it("expiryWarningMs: a custom lead time, false for none, anything else refused at startup", async () => {
    const custom = setup({ expiryWarningMs: 30 * MIN });
    await custom.request();
    custom.advance(30 * MIN);
    expect(await custom.runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 1 });
    const off = setup({ expiryWarningMs: false });
    await off.request();
    off.advance(59 * MIN);
    expect(await off.runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 0 });
    for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY, "10m", true]) {
      expect(() => setup({ expiryWarningMs: bad as never })).toThrow(/approvals\.expiryWarningMs must be a positive integer/);
    }
  });

  it("with approvals.seal, sweeps through the sealing coordinator; a record whose seal fails is told to nobody", async () => {
    const edited = new Set<string>();
    const inner = createInMemoryApprovalCoordinator({ now: () => new Date(Date.parse("2031-01-01T00:00:00.000Z")) });
    // An attacker with write access edits one stored request: the runtime's listing no longer shows it.
    const store = {
      ...inner,
      list: async (filter?: Parameters<typeof inner.list>[0]) => (await inner.list(filter)).map((r) => (edited.has(r.id) ? { ...r, reasons: ["Edited in the store."] } : r)),
    };
    const { runtime, request, advance } = setup({ seal: { keys: [KEY] }, coordinator: store });
    const good = await request();
    const bad = await request();
    edited.add(bad);
    advance(55 * MIN);
    expect(await runtime.approvals.sweep()).toEqual({ escalated: 1, expiring: 1 });
    const at = new Date(Date.parse("2031-01-01T00:55:00.000Z"));
    expect(await inner.claimNotice(good, "expiring", at)).toBe(false);
    expect(await inner.claimNotice(bad, "expiring", at)).toBe(true);
  });

  it("a store that fails while claiming rejects the sweep with INTERNAL_ERROR and changes nothing", async () => {
    const inner = createInMemoryApprovalCoordinator({ now: () => new Date(Date.parse("2031-01-01T00:00:00.000Z")) });
    const store = { ...inner, claimNotice: async () => Promise.reject(new Error('column "notices" does not exist')) };
    const { runtime, sent, request, advance } = setup({ coordinator: store });
    const id = await request();
    advance(55 * MIN);
    await expect(runtime.approvals.sweep()).rejects.toMatchObject({ name: "CapabilityError", code: "INTERNAL_ERROR", stage: "approval" });
    await runtime.drainAudit();
    expect(sent.map((n) => n.type)).toEqual(["approval.requested"]);
    expect((await runtime.approvals.get(id))!.status).toBe("pending");
  });
});
