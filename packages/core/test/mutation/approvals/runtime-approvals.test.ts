// Raised from the mutation run: runtime.approvals (docs/architecture/spec/core.md#core-10) passes every method through, guards only decide,
// and leaves malformed decisions to the coordinator's own checks.
import { os } from "@orpc/server";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type ApprovalCoordinator,
  type ApprovalDecision,
} from "../../../src/index.js";
import { contractClock, makeApprovalRequest } from "../../../../../test-fixtures/approval-coordinator-contract.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

const registry = createCapabilityRegistry({
  orders: {
    refund: agentProcedure(os)
      .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(() => "refunded"),
  },
});
const governance = defineGovernance({ registry });
const MANAGER = { id: "user_manager", kind: "user" } as const;

function runtimeOver(coordinator: ApprovalCoordinator) {
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime({ governance, approvals: { coordinator }, audit: (e) => void events.push(e) });
  return { runtime, events };
}

describe("runtime.approvals", () => {
  it("passes create, get, markConsumed and list through to the coordinator", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const { runtime } = runtimeOver(coordinator);
    const request = makeApprovalRequest(clock.now, { id: "apr_pass" });

    const created = await runtime.approvals.create(request);
    expect(created).toMatchObject({ id: "apr_pass", status: "pending" });
    expect((await coordinator.get("apr_pass"))!.status).toBe("pending");
    expect((await runtime.approvals.get("apr_pass"))!.status).toBe("pending");
    await runtime.approvals.decide("apr_pass", { status: "approved", approver: MANAGER });
    const consumed = await runtime.approvals.markConsumed("apr_pass", "exe_42");
    expect(consumed).toMatchObject({ status: "consumed", consumedByExecutionId: "exe_42" });
    expect((await coordinator.get("apr_pass"))!.consumedByExecutionId).toBe("exe_42");
    expect(typeof runtime.approvals.list).toBe("function");
    const listed = await runtime.approvals.list!({ status: "consumed" });
    expect(listed.map((r) => r.id)).toEqual(["apr_pass"]);
  });

  it("calls list with the caller's filter and keeps the coordinator as `this`", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const seen: unknown[] = [];
    const coordinator: ApprovalCoordinator = {
      create: inner.create,
      get: inner.get,
      decide: inner.decide,
      markConsumed: inner.markConsumed,
      list(this: unknown, filter) {
        seen.push(this, filter);
        return Promise.resolve([]);
      },
    };
    const { runtime } = runtimeOver(coordinator);
    await expect(runtime.approvals.list!({ actorId: "u1" })).resolves.toEqual([]);
    expect(seen).toEqual([coordinator, { actorId: "u1" }]);
  });

  it("has no list when the coordinator has none", () => {
    const inner = createInMemoryApprovalCoordinator();
    const { runtime } = runtimeOver({ create: inner.create, get: inner.get, decide: inner.decide, markConsumed: inner.markConsumed });
    expect("list" in runtime.approvals).toBe(false);
  });

  it("builds no decision event without an audit sink: decide does not read the runtime clock", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    // The coordinator keeps its own clock, so every call to the runtime's `now` comes from runtime.approvals itself.
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const now = vi.fn(() => new Date("2030-01-01T00:00:05.000Z"));
    const silent = createAgentRuntime({ governance, approvals: { coordinator }, now });
    await coordinator.create(makeApprovalRequest(clock.now, { id: "apr_quiet" }));
    now.mockClear();
    await silent.approvals.decide("apr_quiet", { status: "approved", approver: MANAGER });
    expect(now).not.toHaveBeenCalled();

    // With a sink the same decision is audited, stamped by the runtime clock.
    const events: AgentAuditEvent[] = [];
    const audited = createAgentRuntime({ governance, approvals: { coordinator }, now, audit: (e) => void events.push(e) });
    await coordinator.create(makeApprovalRequest(clock.now, { id: "apr_loud" }));
    await audited.approvals.decide("apr_loud", { status: "rejected", approver: MANAGER });
    expect(events.map((e) => [e.type, e.timestamp.toISOString()])).toEqual([["capability.rejected", "2030-01-01T00:00:05.000Z"]]);
  });

  it("refuses an unknown id or a malformed decision, typed, without asking the coordinator to decide, and emits nothing", async () => {
    const clock = contractClock("2030-01-01T00:00:00.000Z");
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const decide = vi.spyOn(coordinator, "decide");
    const { runtime, events } = runtimeOver(coordinator);
    await runtime.approvals.create(makeApprovalRequest(clock.now, { id: "apr_m" }));

    await expect(runtime.approvals.decide("apr_unknown", { status: "approved", approver: MANAGER })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
      stage: "approval",
      cause: new Error('Approval "apr_unknown" was not found'),
    });
    await expect(runtime.approvals.decide("apr_m", null as unknown as ApprovalDecision)).rejects.toMatchObject({
      code: "INPUT_INVALID",
      cause: new Error('Invalid decision status "undefined"'),
    });
    await expect(runtime.approvals.decide("apr_m", { status: "approved" } as ApprovalDecision)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
      cause: expect.objectContaining({ message: expect.stringMatching(/approver is not a well-formed actor/) }),
    });
    expect(decide).not.toHaveBeenCalled();
    expect((await coordinator.get("apr_m"))!.status).toBe("pending");
    expect(events).toEqual([]);
  });
});
