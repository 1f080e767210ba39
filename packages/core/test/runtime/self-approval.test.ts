import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type AgentInvocationInfo,
  type ApprovalRecord,
  type ExecutionResult,
  type ExposureSurface,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

// SI-4 (docs/architecture/spec/core.md#core-14): no self-approval. docs/architecture/spec/core.md#core-10 "runtime.approvals", docs/architecture/spec/core.md#core-r4, docs/architecture/spec/core.md#core-15-item-9.

const REQUESTER = { id: "user_dana", kind: "user" } as const;
const MANAGER = { id: "user_priya", kind: "user", displayName: "Priya", attributes: { team: "ops" } } as const;

function setup(options: { rejectSelfApproval?: boolean } = {}) {
  const events: AgentAuditEvent[] = [];
  const calls: AgentInvocationInfo[] = [];
  let inlineDecision: { status: "approved"; approver: typeof REQUESTER } | undefined;
  const inner = createInMemoryApprovalCoordinator();
  const coordinator = { ...inner, decide: vi.fn(inner.decide) };
  const registry = createCapabilityRegistry({
    orders: {
      refund: agentProcedure(os)
        .input(z.object({ id: z.string(), amount: z.number() }))
        .meta(agentMeta({ description: "Refund an order.", expose: { aiSdk: true, mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
        .handler(({ input, context }) => {
          calls.push(context.agent!);
          return { refunded: input.amount };
        }),
      get: agentProcedure(os)
        .input(z.object({ id: z.string() }))
        .meta(agentMeta({ description: "Read an order.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low" }))
        .handler(({ input }) => ({ id: input.id })),
    },
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: {
      coordinator,
      // Inline mode defers unless the test asks for a decision: lets one runtime serve all three paths.
      handler: async () => inlineDecision,
      ...(options.rejectSelfApproval !== undefined ? { rejectSelfApproval: options.rejectSelfApproval } : {}),
    },
    audit: (event) => void events.push(event),
  });
  const requestRefund = async (): Promise<ApprovalRecord> => {
    const result = await runtime.invoke("orders.refund", { id: "o1", amount: 250 }, { actor: REQUESTER, context: {}, surface: "aiSdk" });
    if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
    return result.approval;
  };
  const approveInline = (approver: typeof REQUESTER | undefined) => void (inlineDecision = approver && { status: "approved", approver });
  return { runtime, coordinator, inner, events, calls, requestRefund, approveInline };
}

function failure(result: ExecutionResult): CapabilityError {
  if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
  return result.error;
}

const decisionEvents = (events: AgentAuditEvent[]) => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected");

describe("SI-4: no self-approval", () => {
  it("SI-4: runtime.approvals.decide by the requester rejects with APPROVAL_SELF_APPROVAL, never calls the coordinator's decide, leaves the record pending and emits no event", async () => {
    const { runtime, coordinator, inner, events, requestRefund } = setup();
    const record = await requestRefund();
    const before = events.length;

    const attempt = runtime.approvals.decide(record.id, { status: "approved", approver: { id: "user_dana", kind: "user" } });
    await expect(attempt).rejects.toBeInstanceOf(CapabilityError);
    await expect(attempt).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    // The comparison is on the requester's id, whatever kind the approver claims.
    await expect(runtime.approvals.decide(record.id, { status: "approved", approver: { id: "user_dana", kind: "service" } })).rejects.toMatchObject({
      code: "APPROVAL_SELF_APPROVAL",
    });

    expect(coordinator.decide).not.toHaveBeenCalled();
    expect((await inner.get(record.id))!.status).toBe("pending");
    expect(events.length).toBe(before);
    expect(decisionEvents(events)).toEqual([]);
  });

  it("SI-4: after a refused self-approval a manager approves and resume completes as the requester", async () => {
    const { runtime, coordinator, calls, requestRefund } = setup();
    const record = await requestRefund();
    await expect(runtime.approvals.decide(record.id, { status: "approved", approver: REQUESTER })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });

    const decided = await runtime.approvals.decide(record.id, { status: "approved", approver: MANAGER });
    expect(decided.status).toBe("approved");
    expect(coordinator.decide).toHaveBeenCalledTimes(1);
    const result = await runtime.resume(record.id, { context: {} });
    expect(result).toMatchObject({ status: "completed", output: { refunded: 250 } });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.actor).toStrictEqual(REQUESTER);
    expect(calls[0]!.approval).toStrictEqual({ id: record.id, approver: { id: "user_priya", kind: "user", displayName: "Priya", attributes: { team: "ops" } } });
  });

  it("SI-4: a self-approval written directly through the coordinator is refused at resume (R4) and leaves the record approved, unconsumed", async () => {
    const { runtime, inner, calls, events, requestRefund } = setup();
    const record = await requestRefund();
    // Coordinators never check self-approval (docs/architecture/spec/core.md#core-10): this write succeeds.
    await inner.decide(record.id, { status: "approved", approver: REQUESTER });

    const result = await runtime.resume(record.id, { context: {} });
    expect(failure(result)).toMatchObject({ code: "APPROVAL_SELF_APPROVAL", stage: "approval" });
    expect(calls).toEqual([]);
    const stored = await inner.get(record.id);
    expect(stored!.status).toBe("approved");
    expect(stored!.consumedByExecutionId).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "capability.failed", executionId: result.executionId, data: { code: "APPROVAL_SELF_APPROVAL" } });
  });

  it("SI-4: rejectSelfApproval: false permits self-approval through runtime.approvals.decide, through the coordinator and inline", async () => {
    const { runtime, inner, calls, requestRefund, approveInline } = setup({ rejectSelfApproval: false });

    const viaRuntime = await requestRefund();
    await runtime.approvals.decide(viaRuntime.id, { status: "approved", approver: REQUESTER });
    expect((await runtime.resume(viaRuntime.id, { context: {} })).status).toBe("completed");

    const viaCoordinator = await requestRefund();
    await inner.decide(viaCoordinator.id, { status: "approved", approver: REQUESTER });
    expect((await runtime.resume(viaCoordinator.id, { context: {} })).status).toBe("completed");

    approveInline(REQUESTER);
    const inline = await runtime.invoke("orders.refund", { id: "o1", amount: 250 }, { actor: REQUESTER, context: {}, surface: "aiSdk" });
    expect(inline.status).toBe("completed");

    expect(calls.map((c) => c.approval?.approver)).toEqual([REQUESTER, REQUESTER, REQUESTER]);
  });

  it("SI-4: decision events from runtime.approvals.decide carry the approver as actor, no executionId, and the record's surface, capabilityId and inputHash", async () => {
    const { runtime, events, requestRefund } = setup();
    const approvedRecord = await requestRefund();
    const rejectedRecord = await requestRefund();
    await runtime.approvals.decide(approvedRecord.id, { status: "approved", approver: MANAGER, comment: "Within budget." });
    await runtime.approvals.decide(rejectedRecord.id, { status: "rejected", approver: MANAGER });

    const [approved, rejected] = decisionEvents(events);
    expect(approved).toStrictEqual({
      type: "capability.approved",
      timestamp: expect.any(Date),
      surface: "aiSdk",
      actor: { id: "user_priya", kind: "user" },
      capabilityId: "orders.refund",
      inputHash: approvedRecord.inputHash,
      data: { approvalId: approvedRecord.id, approver: { id: "user_priya", kind: "user" }, comment: "Within budget." },
    });
    expect(rejected).toStrictEqual({
      type: "capability.rejected",
      timestamp: expect.any(Date),
      surface: "aiSdk",
      actor: { id: "user_priya", kind: "user" },
      capabilityId: "orders.refund",
      inputHash: rejectedRecord.inputHash,
      data: { approvalId: rejectedRecord.id, approver: { id: "user_priya", kind: "user" } },
    });
    expect(approved).not.toHaveProperty("executionId");
  });

  it("SI-4: a decide the coordinator refuses emits no decision event", async () => {
    const { runtime, events, requestRefund } = setup();
    const record = await requestRefund();
    await runtime.approvals.decide(record.id, { status: "approved", approver: MANAGER });
    await expect(runtime.approvals.decide(record.id, { status: "rejected", approver: MANAGER })).rejects.toThrow();
    await expect(runtime.approvals.decide("apr_missing", { status: "approved", approver: MANAGER })).rejects.toThrow();
    expect(decisionEvents(events).map((e) => e.type)).toEqual(["capability.approved"]);
  });

  it("SI-4: deciding is reachable only via runtime.approvals.decide: no surface describes or invokes a decide capability", async () => {
    const { runtime } = setup();
    const surfaces: ExposureSurface[] = ["direct", "aiSdk", "mcp", "workflow", "test"];
    const listed: Record<string, string[]> = {};
    for (const surface of surfaces) {
      listed[surface] = (await runtime.describe(surface, { actor: MANAGER, context: {} })).map((d) => d.id);
    }
    expect(listed).toStrictEqual({ direct: ["orders.get"], aiSdk: ["orders.refund", "orders.get"], mcp: ["orders.refund"], workflow: [], test: [] });
    for (const id of ["approvals.decide", "approval.decide", "decide"]) {
      const result = await runtime.invoke(id, { id: "apr_x", status: "approved" }, { actor: MANAGER, context: {}, surface: "aiSdk" });
      expect(failure(result).code).toBe("CAPABILITY_NOT_FOUND");
    }
  });
});
