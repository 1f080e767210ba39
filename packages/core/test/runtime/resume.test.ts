import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  hide,
  requireApproval,
  type Actor,
  type AgentAuditEvent,
  type AgentInvocationInfo,
  type AgentMeta,
  type ApprovalCoordinator,
  type ApprovalRecord,
  type CapabilityError,
  type CapabilityRegistry,
  type ExecutionResult,
  type PolicyDecision,
  type PolicyRequest,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

// docs/architecture/spec/core.md#core-7: runtime.resume checks R1..R12 in order. Also SI-2, SI-3 and SI-8 where resume carries them.

const START = Date.parse("2030-01-01T00:00:00.000Z");
const REQUESTER: Actor = { id: "user_dana", kind: "user", displayName: "Dana (at request time)" };
const MANAGER: Actor = { id: "user_priya", kind: "user" };

type Call = { input: unknown; agent: AgentInvocationInfo; context: Record<string, unknown> };

function refundRegistry(calls: Call[], expose: AgentMeta["expose"] = { aiSdk: true, direct: true }): CapabilityRegistry {
  return createCapabilityRegistry({
    orders: {
      refund: agentProcedure(os.$context<{ tenant?: string }>())
        .input(z.object({ id: z.string(), amount: z.number() }))
        .meta(agentMeta({ description: "Refund an order.", expose, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } }))
        .handler(({ input, context }) => {
          const { agent, ...rest } = context;
          calls.push({ input, agent: agent!, context: rest });
          return { refunded: input.amount };
        }),
    },
  });
}

function setup(init: { coordinator?: ApprovalCoordinator; registry?: CapabilityRegistry; calls?: Call[] } = {}) {
  let t = START;
  const clock = { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
  const calls = init.calls ?? [];
  const events: AgentAuditEvent[] = [];
  const policyRequests: PolicyRequest[] = [];
  let stance: () => PolicyDecision = () => allow();
  const current = definePolicy("current-rules", (req) => {
    policyRequests.push(req);
    return stance();
  });
  const coordinator = init.coordinator ?? createInMemoryApprovalCoordinator({ now: clock.now });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry: init.registry ?? refundRegistry(calls), policies: [current] }),
    approvals: { coordinator },
    audit: (e) => void events.push(e),
    now: clock.now,
  });
  const request = async (): Promise<ApprovalRecord> => {
    const result = await runtime.invoke("orders.refund", { id: "o1", amount: 250 }, { actor: REQUESTER, context: { tenant: "t-invoke" }, surface: "aiSdk" });
    if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
    return result.approval;
  };
  const approved = async (): Promise<ApprovalRecord> => {
    const record = await request();
    return runtime.approvals.decide(record.id, { status: "approved", approver: MANAGER });
  };
  const setStance = (fn: () => PolicyDecision) => void (stance = fn);
  return { runtime, coordinator, clock, calls, events, policyRequests, request, approved, setStance };
}

function failure(result: ExecutionResult): CapabilityError {
  if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
  return result.error;
}

const eventsOf = (events: AgentAuditEvent[], result: ExecutionResult) => events.filter((e) => e.executionId === result.executionId);

describe("resume: argument errors", () => {
  it("rejects with TypeError for an empty or non-string approval id, before touching the coordinator", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const coordinator = { ...inner, get: vi.fn(inner.get) };
    const { runtime } = setup({ coordinator });
    await expect(runtime.resume("", { context: {} })).rejects.toThrow(TypeError);
    await expect(runtime.resume(42 as unknown as string, { context: {} })).rejects.toThrow(TypeError);
    await expect(runtime.resume(undefined as unknown as string, { context: {} })).rejects.toThrow(TypeError);
    expect(coordinator.get).not.toHaveBeenCalled();
  });

  it.each([null, undefined, "context", 7])("rejects with TypeError for non-object options (%s)", async (options) => {
    const { runtime, events } = setup();
    await expect(runtime.resume("apr_x", options as never)).rejects.toThrow(TypeError);
    expect(events).toEqual([]);
  });
});

describe("resume R1: the record must exist", () => {
  it("R1: an unknown id fails with INTERNAL_ERROR at stage approval, audited as { id: 'unknown', kind: 'anonymous' } on direct", async () => {
    const { runtime, events } = setup();
    const result = await runtime.resume("apr_nope", { context: {} });
    expect(failure(result)).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval", exposeToModel: false });
    expect(result.executionId).toMatch(/^exe_/);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "capability.failed",
      executionId: result.executionId,
      actor: { id: "unknown", kind: "anonymous" },
      surface: "direct",
      data: { code: "INTERNAL_ERROR", stage: "approval", attempts: 0 },
    });
    expect(events[0]).not.toHaveProperty("capabilityId");
  });

  it("R1: an unknown id is audited under expectedActor and expectedSurface when the caller states them", async () => {
    const { runtime, events } = setup();
    const caller: Actor = { id: "user_zed", kind: "service", attributes: { secret: "nope" } };
    await runtime.resume("apr_nope", { context: {}, expectedActor: caller, expectedSurface: "mcp" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "capability.failed", surface: "mcp" });
    expect(events[0]!.actor).toStrictEqual({ id: "user_zed", kind: "service" });
  });

  it("R1: a coordinator.get that throws fails with INTERNAL_ERROR at stage approval", async () => {
    const boom = new Error("db down");
    const inner = createInMemoryApprovalCoordinator();
    const { runtime } = setup({ coordinator: { ...inner, get: async () => Promise.reject(boom) } });
    const error = failure(await runtime.resume("apr_x", { context: {} }));
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(error.cause).toBe(boom);
  });
});

describe("resume R2: binding guards, before status", () => {
  it("SI-8: the guards precede status checks: a pending record with a mismatched expectedActor gives APPROVAL_RESUME_MISMATCH, not APPROVAL_PENDING", async () => {
    const { runtime, coordinator, events, request } = setup();
    const record = await request();
    const stranger: Actor = { id: "user_mallory", kind: "user" };
    const result = await runtime.resume(record.id, { context: {}, expectedActor: stranger, expectedSurface: "aiSdk" });
    expect(failure(result)).toMatchObject({ code: "APPROVAL_RESUME_MISMATCH", stage: "approval", exposeToModel: false });
    // Audited under the caller's stated identity, and the record is untouched.
    expect(eventsOf(events, result)).toMatchObject([{ type: "capability.failed", actor: { id: "user_mallory", kind: "user" }, surface: "aiSdk" }]);
    expect((await coordinator.get(record.id))!.status).toBe("pending");
  });

  it("R2: a mismatched expectedSurface gives APPROVAL_RESUME_MISMATCH, audited on the caller's surface", async () => {
    const { runtime, events, approved, calls } = setup();
    const record = await approved();
    const result = await runtime.resume(record.id, { context: {}, expectedSurface: "mcp", expectedActor: REQUESTER });
    expect(failure(result).code).toBe("APPROVAL_RESUME_MISMATCH");
    expect(eventsOf(events, result)).toMatchObject([{ type: "capability.failed", surface: "mcp", actor: { id: "user_dana", kind: "user" } }]);
    expect(calls).toEqual([]);
    expect((await runtime.resume(record.id, { context: {}, expectedSurface: "aiSdk" })).status).toBe("completed");
  });

  it("SI-3: an expectedActor with the requester's id but another kind gives APPROVAL_RESUME_MISMATCH", async () => {
    const { runtime, coordinator, approved, calls } = setup();
    const record = await approved();
    const result = await runtime.resume(record.id, { context: {}, expectedActor: { id: "user_dana", kind: "service" } });
    expect(failure(result).code).toBe("APPROVAL_RESUME_MISMATCH");
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");
  });

  it("SI-8: an unknown approval id and a guard mismatch are indistinguishable from outside", async () => {
    const { runtime, approved } = setup();
    const record = await approved();
    const unknown = await runtime.resume("apr_00000000-0000-4000-8000-000000000000", { context: {} });
    const mismatch = await runtime.resume(record.id, { context: {}, expectedActor: { id: "user_mallory", kind: "user" } });
    const a = failure(unknown);
    const b = failure(mismatch);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.toJSON()).toStrictEqual({ code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false });
    for (const key of ["stage", "publicMessage", "retryable", "exposeToModel", "details"] as const) expect(a[key]).toStrictEqual(b[key]);
    expect(Object.keys(unknown).sort()).toEqual(Object.keys(mismatch).sort());
  });
});

describe("resume R3: status", () => {
  it("R3: a pending record gives APPROVAL_PENDING (retryable), also when the guards match", async () => {
    const { runtime, request } = setup();
    const record = await request();
    const error = failure(await runtime.resume(record.id, { context: {}, expectedActor: REQUESTER, expectedSurface: "aiSdk" }));
    expect(error).toMatchObject({ code: "APPROVAL_PENDING", retryable: true, exposeToModel: true });
  });

  it("R3: a rejected record gives APPROVAL_REJECTED", async () => {
    const { runtime, request, calls } = setup();
    const record = await request();
    await runtime.approvals.decide(record.id, { status: "rejected", approver: MANAGER });
    expect(failure(await runtime.resume(record.id, { context: {} })).code).toBe("APPROVAL_REJECTED");
    expect(calls).toEqual([]);
  });

  it("R3: a consumed record gives APPROVAL_CONSUMED", async () => {
    const { runtime, approved, calls } = setup();
    const record = await approved();
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
    expect(failure(await runtime.resume(record.id, { context: {} })).code).toBe("APPROVAL_CONSUMED");
    expect(calls).toHaveLength(1);
  });

  it("R3: a record the coordinator reports expired gives APPROVAL_EXPIRED", async () => {
    const { runtime, coordinator, clock, request } = setup();
    const record = await request();
    clock.advance(900_001);
    expect((await coordinator.get(record.id))!.status).toBe("expired");
    expect(failure(await runtime.resume(record.id, { context: {} }))).toMatchObject({ code: "APPROVAL_EXPIRED", retryable: false });
  });

  it("R3: an approved record past expiresAt on the runtime clock gives APPROVAL_EXPIRED and stays approved", async () => {
    const { runtime, coordinator, clock, approved, calls } = setup();
    const record = await approved();
    clock.advance(900_001);
    // Coordinators keep expired approvals approved; the runtime refuses them (docs/architecture/spec/core.md#core-15-item-9).
    expect((await coordinator.get(record.id))!.status).toBe("approved");
    expect(failure(await runtime.resume(record.id, { context: {} })).code).toBe("APPROVAL_EXPIRED");
    expect((await coordinator.get(record.id))!.status).toBe("approved");
    expect(calls).toEqual([]);
  });

  it("R3: an approved record at exactly expiresAt still resumes", async () => {
    const { runtime, clock, approved } = setup();
    const record = await approved();
    clock.advance(900_000);
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
  });

  it("R3: a status other than approved-with-decision (cancelled) gives INTERNAL_ERROR at stage approval", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const coordinator: ApprovalCoordinator = {
      ...inner,
      get: async (id) => {
        const record = await inner.get(id);
        return record && { ...record, status: "cancelled" };
      },
    };
    const { runtime, approved, calls } = setup({ coordinator });
    const record = await approved();
    expect(failure(await runtime.resume(record.id, { context: {} }))).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(calls).toEqual([]);
  });
});

describe("resume R6, R7: the current registry and exposure decide", () => {
  async function resumeOn(registryFor: (calls: Call[]) => CapabilityRegistry) {
    const coordinator = createInMemoryApprovalCoordinator();
    const calls: Call[] = [];
    const before = setup({ coordinator, calls });
    const record = await before.approved();
    const after = setup({ coordinator, calls, registry: registryFor(calls) });
    const result = await after.runtime.resume(record.id, { context: {} });
    return { result, record, coordinator, calls, events: after.events, before };
  }

  it("SI-2: R6 a capability removed from the registry gives CAPABILITY_NOT_FOUND (denied unknown) and leaves the record unconsumed", async () => {
    const { result, record, coordinator, calls, events, before } = await resumeOn((calls) => refundRegistry(calls).filter((c) => c.id !== "orders.refund"));
    expect(failure(result)).toMatchObject({ code: "CAPABILITY_NOT_FOUND" });
    expect(eventsOf(events, result)).toMatchObject([{ type: "capability.denied", data: { reason: "unknown", publicCode: "CAPABILITY_NOT_FOUND" } }]);
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");
    expect((await before.runtime.resume(record.id, { context: {} })).status).toBe("completed");
  });

  it("SI-2: R7 a capability no longer exposed on record.surface gives CAPABILITY_NOT_FOUND (denied not-exposed) and leaves the record unconsumed", async () => {
    const removed = await resumeOn((calls) => refundRegistry(calls).filter((c) => c.id !== "orders.refund"));
    const { result, record, coordinator, calls, events } = await resumeOn((calls) => refundRegistry(calls, { direct: true, mcp: true }));
    expect(failure(result)).toMatchObject({ code: "CAPABILITY_NOT_FOUND" });
    // Concealed exactly like a removed capability; only the audit reason tells them apart (SI-8).
    expect(JSON.stringify(failure(result))).toBe(JSON.stringify(failure(removed.result)));
    expect(eventsOf(events, result)).toMatchObject([{ type: "capability.denied", surface: "aiSdk", data: { reason: "not-exposed" } }]);
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");
  });
});

describe("resume R9: the requester executes", () => {
  it("SI-3: R9 executes as record.actor, never as approver or caller, with the stored actor when no guard is given", async () => {
    const { runtime, approved, calls, events } = setup();
    const record = await approved();
    const result = await runtime.resume(record.id, { context: {} });
    expect(result.status).toBe("completed");
    expect(calls[0]!.agent.actor).toStrictEqual(REQUESTER);
    expect(calls[0]!.agent.approval).toStrictEqual({ id: record.id, approver: MANAGER });
    for (const event of eventsOf(events, result)) expect(event.actor).toStrictEqual({ id: "user_dana", kind: "user" });
  });

  it("R9: a matching expectedActor supplies fresh displayName and attributes; id and kind stay the record's", async () => {
    const { runtime, approved, calls, policyRequests } = setup();
    const record = await approved();
    const fresh: Actor = { id: "user_dana", kind: "user", displayName: "Dana (today)", attributes: { region: "eu" } };
    expect((await runtime.resume(record.id, { context: {}, expectedActor: fresh })).status).toBe("completed");
    expect(calls[0]!.agent.actor).toStrictEqual(fresh);
    expect(policyRequests.at(-1)!.actor).toStrictEqual(fresh);
  });

  it("R9: a malformed stored actor gives UNAUTHENTICATED", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const coordinator: ApprovalCoordinator = {
      ...inner,
      get: async (id) => {
        const record = await inner.get(id);
        return record && { ...record, actor: { id: "", kind: "user" } };
      },
    };
    const { runtime, approved, calls } = setup({ coordinator });
    const record = await approved();
    expect(failure(await runtime.resume(record.id, { context: {} })).code).toBe("UNAUTHENTICATED");
    expect(calls).toEqual([]);
  });
});

describe("resume R10: current invocation policies, with the record in view", () => {
  it("R10: invocation policies re-run with req.approval = the record and the stored input", async () => {
    const { runtime, approved, policyRequests } = setup();
    const record = await approved();
    expect(policyRequests).toHaveLength(1);
    expect(policyRequests[0]!.approval).toBeUndefined();
    await runtime.resume(record.id, { context: { tenant: "t-resume" } });
    expect(policyRequests).toHaveLength(2);
    expect(policyRequests[1]).toMatchObject({
      phase: "invocation",
      surface: "aiSdk",
      input: { id: "o1", amount: 250 },
      context: { tenant: "t-resume" },
      approval: { id: record.id, status: "approved", types: ["manager"], decision: { status: "approved", approver: MANAGER } },
    });
  });

  it.each([
    { name: "a deny", stance: () => deny("FROZEN", "Refunds are frozen."), code: "POLICY_DENIED", reason: "policy-denied" },
    {
      name: "a throw",
      stance: () => {
        throw new Error("rules service down");
      },
      code: "POLICY_FAILED",
      reason: "policy-failed",
    },
    { name: "a hide", stance: () => hide(), code: "CAPABILITY_NOT_FOUND", reason: "hidden" },
  ])("SI-2: R10 $name after approval refuses with $code and leaves the record unconsumed", async ({ stance, code, reason }) => {
    const { runtime, coordinator, approved, setStance, calls, events } = setup();
    const record = await approved();
    setStance(stance);
    const result = await runtime.resume(record.id, { context: {} });
    expect(failure(result).code).toBe(code);
    expect(eventsOf(events, result).at(-1)).toMatchObject({ type: "capability.denied", data: { reason, publicCode: code } });
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");
  });

  it("R10: a deny after approval carries the policy's public message and code", async () => {
    const { runtime, approved, setStance } = setup();
    const record = await approved();
    setStance(() => deny("FROZEN", "Refunds are frozen."));
    const error = failure(await runtime.resume(record.id, { context: {} }));
    expect(error).toMatchObject({ code: "POLICY_DENIED", publicMessage: "Refunds are frozen.", details: { policy: "current-rules", code: "FROZEN" } });
  });

  it("R10: a require-approval naming a type the record lacks is denied, telling the caller to request again; the record stays unconsumed", async () => {
    const { runtime, coordinator, approved, setStance, calls, events } = setup();
    const record = await approved();
    setStance(() => requireApproval({ reason: "Now finance must sign.", approvalType: "finance" }));
    const result = await runtime.resume(record.id, { context: {} });
    const error = failure(result);
    expect(error).toMatchObject({ code: "POLICY_DENIED", exposeToModel: true, details: { policy: "current-rules" } });
    expect(error.publicMessage).toMatch(/request the operation again/i);
    expect(eventsOf(events, result).at(-1)).toMatchObject({ type: "capability.denied", data: { reason: "policy-denied" } });
    expect(calls).toEqual([]);
    expect((await coordinator.get(record.id))!.status).toBe("approved");
  });

  it.each([
    { name: "a type already in record.types", stance: () => requireApproval({ reason: "Manager must sign.", approvalType: "manager" }) },
    { name: "no type", stance: () => requireApproval({ reason: "Someone must sign." }) },
  ])("R10: a require-approval naming $name is satisfied by the record", async ({ stance }) => {
    const { runtime, approved, setStance, calls } = setup();
    const record = await approved();
    setStance(stance);
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
    expect(calls).toHaveLength(1);
  });
});

describe("resume R11: consumption", () => {
  it("R11: a markConsumed rejection gives APPROVAL_CONSUMED with the cause kept, and the procedure never runs", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const lost = new Error("lost the race");
    const { runtime, approved, calls } = setup({ coordinator: { ...inner, markConsumed: async () => Promise.reject(lost) } });
    const record = await approved();
    const error = failure(await runtime.resume(record.id, { context: {} }));
    expect(error).toMatchObject({ code: "APPROVAL_CONSUMED", stage: "approval" });
    expect(error.cause).toBe(lost);
    expect(calls).toEqual([]);
  });

  it("R11: the record is consumed by the resumed execution's id", async () => {
    const { runtime, coordinator, approved } = setup();
    const record = await approved();
    const result = await runtime.resume(record.id, { context: {} });
    expect((await coordinator.get(record.id))!).toMatchObject({ status: "consumed", consumedByExecutionId: result.executionId });
  });
});

describe("resume R12: joining the pipeline at stage 9", () => {
  it("R12: mints a new executionId, emits no capability.requested, and starts with { attempt: 1, approvalId }", async () => {
    const { runtime, events, calls } = setup();
    const invoked = await runtime.invoke("orders.refund", { id: "o1", amount: 250 }, { actor: REQUESTER, context: {}, surface: "aiSdk" });
    if (invoked.status !== "approval-required") throw new Error("expected approval-required");
    const record = invoked.approval;
    await runtime.approvals.decide(record.id, { status: "approved", approver: MANAGER });

    const result = await runtime.resume(record.id, { context: {} });
    expect(result).toMatchObject({ status: "completed", output: { refunded: 250 } });
    expect(result.executionId).toMatch(/^exe_/);
    expect(result.executionId).not.toBe(invoked.executionId);
    expect(calls[0]!.agent.executionId).toBe(result.executionId);

    const resumed = eventsOf(events, result);
    expect(resumed.map((e) => e.type)).toEqual(["capability.started", "capability.completed"]);
    expect(resumed[0]!.data).toStrictEqual({ attempt: 1, approvalId: record.id });
    for (const event of resumed) expect(event).toMatchObject({ capabilityId: "orders.refund", surface: "aiSdk", inputHash: record.inputHash });
    expect(events.filter((e) => e.type === "capability.requested")).toHaveLength(1);
  });

  it("R12: the options' correlationId and idempotencyKey reach ctx.agent, with the fresh context", async () => {
    const { runtime, approved, calls, events } = setup();
    const record = await approved();
    const result = await runtime.resume(record.id, { context: { tenant: "t-resume" }, correlationId: "corr_42", idempotencyKey: "idem_refund_o1" });
    expect(calls[0]!.agent).toMatchObject({
      executionId: result.executionId,
      capabilityId: "orders.refund",
      surface: "aiSdk",
      correlationId: "corr_42",
      idempotencyKey: "idem_refund_o1",
    });
    expect(calls[0]!.context).toStrictEqual({ tenant: "t-resume" });
    for (const event of eventsOf(events, result)) expect(event.correlationId).toBe("corr_42");
  });

  it("R12: without those options ctx.agent gets a fresh idk_ key and no correlationId", async () => {
    const { runtime, approved, calls } = setup();
    const record = await approved();
    await runtime.resume(record.id, { context: {} });
    expect(calls[0]!.agent.idempotencyKey).toMatch(/^idk_/);
    expect(calls[0]!.agent).not.toHaveProperty("correlationId");
  });
});
