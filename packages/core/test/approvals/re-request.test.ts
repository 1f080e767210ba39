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
} from "../../src/index.js";

// runtime.approvals.reRequest: the operator path for an approval consumed by an execution that never started.
const dana: Actor = { id: "u_dana", kind: "user" };
const priya: Actor = { id: "u_priya", kind: "user" };
const ops: Actor = { id: "ops_sam", kind: "user", attributes: { secret: "never in audit" } };

function setup(options: { strict?: boolean; failApprovalRequested?: boolean } = {}) {
  const events: AgentAuditEvent[] = [];
  const registry = createCapabilityRegistry({
    refund: agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } }))
      .handler(({ input }) => ({ refunded: input.orderId })),
  });
  const coordinator = createInMemoryApprovalCoordinator();
  const sink = (event: AgentAuditEvent) => {
    if (options.failApprovalRequested && event.type === "capability.approval_requested") return Promise.reject(new Error("audit down"));
    events.push(event);
  };
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: { coordinator },
    audit: { sinks: [sink], strict: options.strict === true, onSinkError: () => {} },
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

describe("runtime.approvals.reRequest", () => {
  it("creates a fresh pending approval for the same input and requester, audited with the consumed id, execution and operator", async () => {
    const s = setup();
    const approval = await consumedNeverStarted(s);
    const fresh = await s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "exe_crashed never started" });
    expect(fresh).toMatchObject({ id: `${approval.id}.r`, status: "pending", actor: dana, input: { orderId: "o1" }, inputHash: approval.inputHash, types: ["manager"] });
    expect(fresh.expiresAt.getTime() - fresh.requestedAt.getTime()).toBe(approval.expiresAt.getTime() - approval.requestedAt.getTime());
    const event = s.events.find((e) => e.type === "capability.approval_requested" && e.data.approvalId === fresh.id);
    expect(event).toMatchObject({
      actor: { id: "u_dana", kind: "user" },
      inputHash: approval.inputHash,
      data: { reRequest: { of: approval.id, consumedByExecutionId: "exe_crashed", operator: { id: "ops_sam", kind: "user" }, reason: "exe_crashed never started" } },
    });
    expect(JSON.stringify(event)).not.toContain("never in audit");
    // The consumed record is untouched; the fresh one needs a decision before it runs.
    expect(await s.runtime.approvals.get(approval.id)).toMatchObject({ status: "consumed", consumedByExecutionId: "exe_crashed" });
    expect(await s.runtime.resume(fresh.id, { context: {} })).toMatchObject({ status: "failed", error: { code: "APPROVAL_PENDING" } });
    await s.runtime.approvals.decide(fresh.id, { status: "approved", approver: priya });
    expect(await s.runtime.resume(fresh.id, { context: {} })).toMatchObject({ status: "completed", output: { refunded: "o1" } });
  });

  it("refuses a second re-request of the same record, and any record that is not consumed", async () => {
    const s = setup();
    const approval = await consumedNeverStarted(s);
    await s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "first" });
    await expect(s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: "second" })).rejects.toThrow(/already exists/);
    await expect(s.runtime.approvals.reRequest(`${approval.id}.r`, { operator: ops, reason: "pending" })).rejects.toThrow(/status: pending/);
    await expect(s.runtime.approvals.reRequest("apr_missing", { operator: ops, reason: "x" })).rejects.toThrow(/not found/);
    await expect(s.runtime.approvals.reRequest(approval.id, { operator: { id: "", kind: "user" }, reason: "x" })).rejects.toThrow(TypeError);
    await expect(s.runtime.approvals.reRequest(approval.id, { operator: ops, reason: " " })).rejects.toThrow(TypeError);
  });

  it("in strict audit mode a failed audit write rejects the re-request", async () => {
    const s = setup({ strict: true, failApprovalRequested: true });
    const requested = await s.runtime.invoke("refund", { orderId: "o1" }, { actor: dana, context: {} });
    if (requested.status !== "approval-required") throw new Error("expected approval-required");
    await s.runtime.approvals.decide(requested.approval.id, { status: "approved", approver: priya });
    await s.coordinator.markConsumed(requested.approval.id, "exe_crashed");
    await expect(s.runtime.approvals.reRequest(requested.approval.id, { operator: ops, reason: "x" })).rejects.toThrow("audit down");
  });
});
