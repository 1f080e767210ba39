import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type AgentInvocationInfo,
  type ApprovalDecision,
  type ApprovalRequest,
  type CapabilityError,
  type ExecutionResult,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

// docs/architecture/spec/core.md#core-10 "Inline handler" (ADR-006 addendum) and SI-4 for inline decisions.

const START = Date.parse("2030-01-01T00:00:00.000Z");
const REQUESTER = { id: "user_dana", kind: "user", displayName: "Dana" } as const;
const MANAGER = { id: "user_priya", kind: "user", displayName: "Priya", attributes: { team: "ops" } } as const;

type Handler = (req: ApprovalRequest, clock: { advance(ms: number): void }) => Promise<ApprovalDecision | undefined>;

function setup(handler: Handler, options: { rejectSelfApproval?: boolean } = {}) {
  let t = START;
  const clock = { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
  const events: AgentAuditEvent[] = [];
  const calls: { input: unknown; agent: AgentInvocationInfo | undefined }[] = [];
  const requests: ApprovalRequest[] = [];
  const inner = createInMemoryApprovalCoordinator({ now: clock.now });
  const coordinator = { ...inner, create: vi.fn(inner.create) };
  const registry = createCapabilityRegistry({
    orders: {
      refund: agentProcedure(os)
        .input(z.object({ id: z.string(), amount: z.number() }))
        .meta(agentMeta({
          description: "Refund an order.",
          expose: { direct: true, aiSdk: true },
          sideEffect: "write",
          risk: "high",
          approval: { required: true, expiresInMs: 1_000 },
        }))
        .handler(({ input, context }) => {
          calls.push({ input, agent: context.agent });
          return { refunded: input.amount };
        }),
    },
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: {
      coordinator,
      handler: async (req) => {
        requests.push(req);
        return handler(req, clock);
      },
      ...(options.rejectSelfApproval !== undefined ? { rejectSelfApproval: options.rejectSelfApproval } : {}),
    },
    audit: (event) => void events.push(event),
    now: clock.now,
  });
  const invoke = () => runtime.invoke("orders.refund", { id: "o1", amount: 150 }, { actor: REQUESTER, context: {}, surface: "aiSdk" });
  return { runtime, invoke, events, calls, requests, coordinator, inner };
}

function failure(result: ExecutionResult): CapabilityError {
  if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
  return result.error;
}

const decisionEvents = (events: AgentAuditEvent[]) => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected");

describe("inline approval handler", () => {
  it("an approved decision executes in the same call with ctx.agent.approval = { id, approver }; nothing is stored", async () => {
    const { invoke, events, calls, requests, coordinator } = setup(async () => ({ status: "approved", approver: MANAGER, comment: "Fine." }));
    const result = await invoke();
    expect(result).toMatchObject({ status: "completed", output: { refunded: 150 } });
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request).toMatchObject({ capabilityId: "orders.refund", surface: "aiSdk", actor: REQUESTER, input: { id: "o1", amount: 150 } });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.agent).toMatchObject({ executionId: result.executionId, actor: REQUESTER, approval: { id: request.id, approver: MANAGER } });
    expect(coordinator.create).not.toHaveBeenCalled();

    expect(events.map((e) => e.type)).toEqual([
      "capability.requested",
      "capability.approval_requested",
      "capability.approved",
      "capability.started",
      "capability.completed",
    ]);
    const approved = decisionEvents(events)[0]!;
    // The approver is the event's actor, reduced to { id, kind }; the executionId ties it to this run.
    expect(approved).toMatchObject({
      actor: { id: "user_priya", kind: "user" },
      executionId: result.executionId,
      capabilityId: "orders.refund",
      surface: "aiSdk",
      inputHash: request.inputHash,
    });
    expect(approved.actor).toStrictEqual({ id: "user_priya", kind: "user" });
    expect(approved.data).toStrictEqual({ approvalId: request.id, approver: { id: "user_priya", kind: "user" }, comment: "Fine." });
    expect(events.find((e) => e.type === "capability.started")!.data).toStrictEqual({ attempt: 1, approvalId: request.id });
  });

  it("an inline request is never stored, so it cannot be resumed", async () => {
    const { runtime, invoke, requests, inner } = setup(async () => ({ status: "approved", approver: MANAGER }));
    expect((await invoke()).status).toBe("completed");
    const id = requests[0]!.id;
    expect(await inner.get(id)).toBeNull();
    expect(failure(await runtime.resume(id, { context: {} }))).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
  });

  it("a rejected decision fails with APPROVAL_REJECTED and emits capability.rejected with the approver as actor", async () => {
    const { invoke, events, calls, requests, coordinator } = setup(async () => ({ status: "rejected", approver: MANAGER, comment: "Too much." }));
    const result = await invoke();
    expect(failure(result)).toMatchObject({ code: "APPROVAL_REJECTED", stage: "approval", exposeToModel: true });
    expect(calls).toEqual([]);
    expect(coordinator.create).not.toHaveBeenCalled();
    const rejected = decisionEvents(events);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ type: "capability.rejected", actor: { id: "user_priya", kind: "user" }, executionId: result.executionId });
    expect(rejected[0]!.data).toStrictEqual({ approvalId: requests[0]!.id, approver: { id: "user_priya", kind: "user" }, comment: "Too much." });
    expect(events.at(-1)).toMatchObject({ type: "capability.failed", actor: { id: "user_dana", kind: "user" }, data: { code: "APPROVAL_REJECTED" } });
  });

  it("undefined defers to the coordinator flow: the request is stored and the call returns approval-required", async () => {
    const { runtime, invoke, calls, requests, coordinator, inner } = setup(async () => undefined);
    const result = await invoke();
    expect(result.status).toBe("approval-required");
    if (result.status !== "approval-required") return;
    expect(coordinator.create).toHaveBeenCalledTimes(1);
    expect(coordinator.create.mock.calls[0]![0]).toBe(requests[0]);
    expect(result.approval.id).toBe(requests[0]!.id);
    expect((await inner.get(result.approval.id))!.status).toBe("pending");
    expect(calls).toEqual([]);

    // The stored request follows the ordinary path; the handler is not asked again on resume.
    await runtime.approvals.decide(result.approval.id, { status: "approved", approver: MANAGER });
    expect((await runtime.resume(result.approval.id, { context: {} })).status).toBe("completed");
    expect(requests).toHaveLength(1);
  });

  it("a throwing handler fails with INTERNAL_ERROR at stage approval, keeping the cause server-side", async () => {
    const boom = new Error("approval UI unreachable");
    const { invoke, calls, coordinator, events } = setup(async () => {
      throw boom;
    });
    const error = failure(await invoke());
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval", exposeToModel: false });
    expect(error.cause).toBe(boom);
    expect(JSON.stringify(error)).not.toContain("unreachable");
    expect(calls).toEqual([]);
    expect(coordinator.create).not.toHaveBeenCalled();
    expect(decisionEvents(events)).toEqual([]);
  });

  it.each([
    { name: "an unknown status", decision: { status: "maybe", approver: MANAGER } },
    { name: "a missing approver", decision: { status: "approved" } },
    { name: "an approver with an empty id", decision: { status: "approved", approver: { id: "", kind: "user" } } },
    { name: "an approver with an invalid kind", decision: { status: "approved", approver: { id: "u", kind: "robot" } } },
    { name: "null", decision: null },
    { name: "a string", decision: "approved" },
  ])("an invalid decision ($name) fails with INTERNAL_ERROR at stage approval and emits no decision event", async ({ decision }) => {
    const { invoke, calls, coordinator, events } = setup(async () => decision as unknown as ApprovalDecision);
    expect(failure(await invoke())).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(calls).toEqual([]);
    expect(coordinator.create).not.toHaveBeenCalled();
    expect(decisionEvents(events)).toEqual([]);
  });

  it("an approval that arrives after expiresAt fails with APPROVAL_EXPIRED, after the capability.approved event", async () => {
    const { invoke, calls, events } = setup(async (req, clock) => {
      clock.advance(1_001); // the request expires 1 000 ms after it was made
      expect(req.expiresAt.getTime()).toBe(START + 1_000);
      return { status: "approved", approver: MANAGER };
    });
    expect(failure(await invoke())).toMatchObject({ code: "APPROVAL_EXPIRED", stage: "approval" });
    expect(calls).toEqual([]);
    expect(events.map((e) => e.type)).toEqual([
      "capability.requested",
      "capability.approval_requested",
      "capability.approved",
      "capability.failed",
    ]);
  });

  it("an approval at exactly expiresAt is still in time", async () => {
    const { invoke, calls } = setup(async (_req, clock) => {
      clock.advance(1_000);
      return { status: "approved", approver: MANAGER };
    });
    expect((await invoke()).status).toBe("completed");
    expect(calls).toHaveLength(1);
  });

  it("SI-4: an inline self-approval fails with APPROVAL_SELF_APPROVAL and never runs the procedure", async () => {
    const { invoke, calls } = setup(async () => ({ status: "approved", approver: { id: "user_dana", kind: "user" } }));
    const error = failure(await invoke());
    expect(error).toMatchObject({ code: "APPROVAL_SELF_APPROVAL", stage: "approval", exposeToModel: true });
    expect(error.toJSON()).toStrictEqual({ code: "APPROVAL_SELF_APPROVAL", message: "The approver must differ from the requesting actor.", retryable: false });
    expect(calls).toEqual([]);
  });

  it("SI-4: with rejectSelfApproval: false an inline self-approval executes", async () => {
    const self = { id: "user_dana", kind: "user" } as const;
    const { invoke, calls, requests } = setup(async () => ({ status: "approved", approver: self }), { rejectSelfApproval: false });
    expect((await invoke()).status).toBe("completed");
    expect(calls[0]!.agent!.approval).toStrictEqual({ id: requests[0]!.id, approver: self });
  });
});
