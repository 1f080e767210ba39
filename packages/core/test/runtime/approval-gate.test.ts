import { createHash } from "node:crypto";
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
  requireApproval,
  type AgentAuditEvent,
  type AgentMeta,
  type AgentPolicy,
  type ApprovalRecord,
  type ApprovalRequest,
  type ExecutionResult,
  type RuntimeDefaults,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

// docs/architecture/spec/core.md#core-stage-8 and docs/architecture/spec/core.md#core-10 "Request building".

const START = Date.parse("2030-01-01T00:00:00.000Z");
const REQUESTER = { id: "user_dana", kind: "user" } as const;
const MANAGER = { id: "user_priya", kind: "user" } as const;

function manualClock() {
  let t = START;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

function setup(init: {
  approval?: AgentMeta["approval"];
  metaPolicies?: AgentPolicy[];
  policies?: AgentPolicy[];
  defaults?: RuntimeDefaults;
  handler?: (req: ApprovalRequest) => Promise<undefined>;
}) {
  const clock = manualClock();
  const events: AgentAuditEvent[] = [];
  const calls: unknown[] = [];
  const inner = createInMemoryApprovalCoordinator({ now: clock.now });
  const created: ApprovalRecord[] = [];
  const coordinator = {
    ...inner,
    create: vi.fn(async (request: ApprovalRequest) => {
      const record = await inner.create(request);
      created.push(record);
      return record;
    }),
  };
  const meta: AgentMeta = {
    description: "Refund an order.",
    expose: { direct: true, aiSdk: true },
    sideEffect: "write",
    risk: "high",
    ...(init.approval ? { approval: init.approval } : {}),
    ...(init.metaPolicies ? { policies: init.metaPolicies } : {}),
  };
  const registry = createCapabilityRegistry({
    orders: {
      refund: agentProcedure(os)
        .input(z.object({ id: z.string(), amount: z.number(), currency: z.string().default("EUR") }))
        .meta(agentMeta(meta))
        .handler(({ input, context }) => {
          calls.push({ input, approval: context.agent?.approval });
          return { refunded: input.amount };
        }),
    },
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry, policies: init.policies ?? [] }),
    approvals: { coordinator, ...(init.handler ? { handler: init.handler } : {}) },
    audit: (event) => void events.push(event),
    now: clock.now,
    ...(init.defaults ? { defaults: init.defaults } : {}),
  });
  return { runtime, clock, events, calls, coordinator, inner, created };
}

function suspended(result: ExecutionResult): ApprovalRecord {
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return result.approval;
}

const demand = (name: string, options: Parameters<typeof requireApproval>[0], phases?: ("invocation" | "execution")[]) =>
  definePolicy(name, () => requireApproval(options), phases ? { phases } : undefined);

const refund = { id: "o1", amount: 150 };

describe("stage 8: building the approval request", () => {
  it("builds the request of a static gate from the validated input, its hash, the requester and the clock", async () => {
    const { runtime, calls, created } = setup({ approval: { required: true, type: "manager" } });
    const result = await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {}, surface: "aiSdk" });
    const record = suspended(result);

    // Stage 5 defaulted `currency`; the approval binds what was validated, hashed as canonical JSON (sorted keys).
    const canonical = '{"amount":150,"currency":"EUR","id":"o1"}';
    const expectedHash = createHash("sha256").update(canonical, "utf8").digest("hex");
    expect(record).toMatchObject({
      capabilityId: "orders.refund",
      surface: "aiSdk",
      actor: REQUESTER,
      input: { id: "o1", amount: 150, currency: "EUR" },
      inputHash: expectedHash,
      reasons: ["Approval is required for orders.refund."],
      types: ["manager"],
      risk: "high",
      sideEffect: "write",
      status: "pending",
    });
    expect(record.id).toMatch(/^apr_[0-9a-f-]{36}$/);
    expect(record.requestedAt.getTime()).toBe(START);
    expect(record.expiresAt.getTime()).toBe(START + 900_000);
    expect(created).toHaveLength(1);
    expect(calls).toEqual([]);
  });

  it("lists the static reason first, then every policy reason in evaluation order (runtime policies, then meta policies)", async () => {
    const { runtime } = setup({
      approval: { required: true },
      policies: [demand("runtime-a", { reason: "Runtime reason A." }), definePolicy("neutral", () => allow()), demand("runtime-b", { reason: "Runtime reason B." })],
      metaPolicies: [demand("meta-c", { reason: "Meta reason C." })],
    });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(record.reasons).toEqual(["Approval is required for orders.refund.", "Runtime reason A.", "Runtime reason B.", "Meta reason C."]);
    expect(record.types).toEqual([]);
  });

  it("lists meta.approval.type first, then each policy approvalType, deduplicated; a stance without a type adds none", async () => {
    const { runtime } = setup({
      approval: { required: true, type: "manager" },
      policies: [
        demand("finance", { reason: "Finance must look.", approvalType: "finance" }),
        demand("untyped", { reason: "Someone must look." }),
        demand("manager-again", { reason: "Manager must look.", approvalType: "manager" }),
        demand("finance-again", { reason: "Finance again.", approvalType: "finance" }),
        demand("legal", { reason: "Legal must look.", approvalType: "legal" }),
      ],
    });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(record.types).toEqual(["manager", "finance", "legal"]);
    expect(record.reasons).toHaveLength(6);
  });

  it("a policy-only requirement (no static gate) carries only the policy reasons and types", async () => {
    const { runtime } = setup({ policies: [demand("limit", { reason: "Refunds over 100 need a manager.", approvalType: "manager" })] });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(record.reasons).toEqual(["Refunds over 100 need a manager."]);
    expect(record.types).toEqual(["manager"]);
  });

  it.each([
    { name: "a policy's shorter expiry beats the gate's", gate: 5_000, policies: [3_000, 8_000], expected: 3_000 },
    { name: "the gate's shorter expiry beats the policies'", gate: 2_000, policies: [3_000, undefined], expected: 2_000 },
    { name: "policy expiries alone when the gate sets none", gate: undefined, policies: [undefined, 7_000, 9_000], expected: 7_000 },
    { name: "defaults.approvalExpiresInMs when nobody sets one", gate: undefined, policies: [undefined], expected: 60_000 },
  ])("expiresInMs is the minimum over contributing decisions and meta.approval.expiresInMs: $name", async ({ gate, policies, expected }) => {
    const { runtime } = setup({
      approval: { required: true, ...(gate !== undefined ? { expiresInMs: gate } : {}) },
      policies: policies.map((ms, i) => demand(`p${i}`, { reason: `Reason ${i}.`, ...(ms !== undefined ? { expiresInMs: ms } : {}) })),
      defaults: { approvalExpiresInMs: 60_000 },
    });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(record.expiresAt.getTime() - record.requestedAt.getTime()).toBe(expected);
    expect(record.requestedAt.getTime()).toBe(START);
  });

  it("counts meta.approval.expiresInMs even when only a policy engages the gate", async () => {
    const { runtime } = setup({ approval: { expiresInMs: 1_500 }, policies: [demand("limit", { reason: "Large.", expiresInMs: 3_000 })] });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(record.expiresAt.getTime()).toBe(START + 1_500);
  });

  it("uses 900 000 ms when neither meta, policies nor runtime defaults set an expiry, measured from the injected now()", async () => {
    const { runtime, clock } = setup({ approval: { required: true } });
    clock.advance(42_000);
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(record.requestedAt.getTime()).toBe(START + 42_000);
    expect(record.expiresAt.getTime()).toBe(START + 42_000 + 900_000);
  });
});

describe("stage 8: announcing and storing the request", () => {
  it("emits capability.approval_requested once, before coordinator.create, with { approvalId, reasons, types, expiresAt }", async () => {
    const { runtime, events, coordinator, inner } = setup({
      approval: { required: true, type: "manager", expiresInMs: 10_000 },
      policies: [demand("limit", { reason: "Large refund.", approvalType: "finance" })],
    });
    let seenAtCreate: string[] = [];
    coordinator.create.mockImplementation(async (request) => {
      seenAtCreate = events.map((e) => e.type);
      return inner.create(request);
    });
    const result = await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {}, correlationId: "corr_1" });
    const record = suspended(result);

    expect(seenAtCreate).toEqual(["capability.requested", "capability.approval_requested"]);
    const requested = events.filter((e) => e.type === "capability.approval_requested");
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({
      executionId: result.executionId,
      capabilityId: "orders.refund",
      surface: "direct",
      actor: REQUESTER,
      correlationId: "corr_1",
      inputHash: record.inputHash,
    });
    expect(requested[0]!.data).toStrictEqual({
      approvalId: record.id,
      reasons: ["Approval is required for orders.refund.", "Large refund."],
      types: ["manager", "finance"],
      expiresAt: new Date(START + 10_000),
    });
    // A suspension is a normal outcome: no started, no terminal failure.
    expect(events.map((e) => e.type)).toEqual(["capability.requested", "capability.approval_requested"]);
  });

  it("emits capability.approval_requested once, before the inline handler is called", async () => {
    const seen: { types: string[]; id: string }[] = [];
    const { runtime, events } = setup({
      approval: { required: true },
      handler: async (req) => {
        seen.push({ types: events.map((e) => e.type), id: req.id });
        return undefined;
      },
    });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    expect(seen).toEqual([{ types: ["capability.requested", "capability.approval_requested"], id: record.id }]);
    expect(events.filter((e) => e.type === "capability.approval_requested")).toHaveLength(1);
  });

  it("returns the record exactly as coordinator.create returned it", async () => {
    const { runtime, coordinator, inner } = setup({ approval: { required: true } });
    let returned: ApprovalRecord | undefined;
    coordinator.create.mockImplementation(async (request) => {
      // A coordinator may enrich its record; the envelope carries that record, not the runtime's request.
      returned = { ...(await inner.create(request)), reasons: ["Stored by the coordinator."] };
      return returned;
    });
    const result = await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} });
    expect(suspended(result)).toBe(returned);
  });

  it("a throwing coordinator.create fails with INTERNAL_ERROR at stage approval and never runs the procedure", async () => {
    const { runtime, coordinator, calls, events } = setup({ approval: { required: true } });
    const boom = new Error("store down");
    coordinator.create.mockRejectedValue(boom);
    const result = await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} });
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval", exposeToModel: false });
    expect(result.error.cause).toBe(boom);
    expect(calls).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(["capability.requested", "capability.approval_requested", "capability.failed"]);
  });
});

describe("stage 9 engaging stage 8", () => {
  it("an execution-phase require-approval with no approval yet suspends the invocation; after approval the resumed run is satisfied", async () => {
    const seenApproval: unknown[] = [];
    const nightShift = definePolicy(
      "night-shift",
      (req) => {
        seenApproval.push(req.approval?.id);
        return requireApproval({ reason: "Night shift needs on-call sign-off.", approvalType: "oncall", expiresInMs: 4_000 });
      },
      { phases: ["execution"] },
    );
    const { runtime, events, calls } = setup({ policies: [nightShift] });
    const result = await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} });
    const record = suspended(result);
    expect(record.reasons).toEqual(["Night shift needs on-call sign-off."]);
    expect(record.types).toEqual(["oncall"]);
    expect(record.expiresAt.getTime()).toBe(START + 4_000);
    expect(calls).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(["capability.requested", "capability.approval_requested"]);

    await runtime.approvals.decide(record.id, { status: "approved", approver: MANAGER });
    const resumed = await runtime.resume(record.id, { context: {} });
    expect(resumed).toMatchObject({ status: "completed", output: { refunded: 150 } });
    expect(calls).toEqual([{ input: { id: "o1", amount: 150, currency: "EUR" }, approval: { id: record.id, approver: MANAGER } }]);
    // A resumed execution shows its approval record to every policy it runs (docs/architecture/spec/core.md#core-3 PolicyRequest.approval).
    expect(seenApproval).toEqual([undefined, record.id]);
  });

  it("one decision satisfies the merged requirement of the static gate and every policy", async () => {
    const { runtime, calls } = setup({
      approval: { required: true, type: "manager" },
      policies: [demand("a", { reason: "A.", approvalType: "finance" }), demand("b", { reason: "B.", approvalType: "legal" })],
    });
    const record = suspended(await runtime.invoke("orders.refund", refund, { actor: REQUESTER, context: {} }));
    await runtime.approvals.decide(record.id, { status: "approved", approver: MANAGER });
    expect((await runtime.resume(record.id, { context: {} })).status).toBe("completed");
    expect(calls).toHaveLength(1);
  });
});
