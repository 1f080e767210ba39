import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentMeta,
} from "../../src/index.js";
import { dana, priya, recordingTracer, type RecordedSpan } from "./execution-harness.js";

const base = agentProcedure(os);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "A capability.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "medium", ...extra });

let flakyCalls = 0;
const registry = createCapabilityRegistry({
  get: base
    .input(z.object({ id: z.string() }))
    .meta(agentMeta(meta()))
    .handler(({ input }) => ({ id: input.id })),
  guarded: base.meta(agentMeta(meta({ tags: ["guarded"] }))).handler(() => "ok"),
  broken: base.meta(agentMeta(meta({ tags: ["broken"] }))).handler(() => "never"),
  flaky: base.meta(agentMeta(meta({ retry: { maxAttempts: 2, backoffMs: 1 } }))).handler(() => {
    flakyCalls++;
    if (flakyCalls < 3) throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });
    return "third time";
  }),
  throws: base.meta(agentMeta(meta())).handler(() => {
    throw new Error("boom");
  }),
  slow: base.meta(agentMeta(meta({ timeoutMs: 10 }))).handler(
    ({ signal }) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
  ),
  refund: base
    .input(z.object({ amount: z.number() }))
    .meta(agentMeta(meta({ sideEffect: "write", risk: "high", approval: { required: true } })))
    .handler(({ input }) => ({ refunded: input.amount })),
});
const governance = defineGovernance({
  registry,
  policies: [
    definePolicy("guard", () => allow(), { scope: { capabilities: { tags: ["guarded"] } } }),
    definePolicy("explode", () => {
      throw new Error("policy bug");
    }, { scope: { capabilities: { tags: ["broken"] } } }),
  ],
});

function traced() {
  const tracer = recordingTracer();
  const runtime = createAgentRuntime({
    governance,
    tracing: tracer.adapter,
    audit: () => {},
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
  });
  return { runtime, tracer };
}

const root = (spans: RecordedSpan[]) => {
  const roots = spans.filter((s) => s.parent === undefined);
  expect(roots).toHaveLength(1);
  return roots[0]!;
};

function expectEachEndedOnce(spans: RecordedSpan[]) {
  for (const span of spans) expect(span.endCount, span.name).toBe(1);
}

describe("tracing (core.md §12)", () => {
  it("a completed call opens agent.capability_call with one agent.procedure_execution child", async () => {
    const { runtime, tracer } = traced();
    const result = await runtime.invoke("get", { id: "o1" }, { actor: dana, context: {}, surface: "aiSdk" });
    expect(tracer.spans.map((s) => s.name)).toEqual(["agent.capability_call", "agent.procedure_execution"]);
    const call = root(tracer.spans);
    expect(call.startAttributes).toEqual({
      "orpc_agent.capability_id": "get",
      "orpc_agent.surface": "aiSdk",
      "orpc_agent.actor_kind": "user",
      "orpc_agent.actor_id": "dana",
      "orpc_agent.execution_id": result.executionId,
    });
    expect(call.attributes).toMatchObject({
      "orpc_agent.side_effect": "read",
      "orpc_agent.risk": "medium",
      "orpc_agent.outcome": "completed",
      "orpc_agent.attempt": 1,
    });
    expect("orpc_agent.error_code" in call.attributes).toBe(false);
    expect(call.status).toBe("ok");
    expect(call.errors).toEqual([]);
    const attempt = tracer.named("agent.procedure_execution")[0]!;
    expect(attempt.parent).toBe(call);
    expect(attempt.attributes).toEqual({ "orpc_agent.capability_id": "get", "orpc_agent.execution_id": result.executionId, "orpc_agent.attempt": 1 });
    expect(attempt.status).toBe("ok");
    expectEachEndedOnce(tracer.spans);
  });

  it("a retried read opens one agent.procedure_execution per attempt", async () => {
    const { runtime, tracer } = traced();
    flakyCalls = 0;
    const result = await runtime.invoke("flaky", undefined, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    const call = root(tracer.spans);
    const attempts = tracer.named("agent.procedure_execution");
    expect(attempts.map((s) => [s.attributes["orpc_agent.attempt"], s.status, s.parent === call])).toEqual([
      [1, "error", true],
      [2, "error", true],
      [3, "ok", true],
    ]);
    expect(call.attributes["orpc_agent.attempt"]).toBe(3);
    expect(call.status).toBe("ok");
    expectEachEndedOnce(tracer.spans);
  });

  it("no agent.policy_evaluation span when no policy applies", async () => {
    const { runtime, tracer } = traced();
    await runtime.invoke("get", { id: "o1" }, { actor: dana, context: {} });
    expect(tracer.named("agent.policy_evaluation")).toEqual([]);
  });

  it("an applicable policy batch gets an agent.policy_evaluation child", async () => {
    const { runtime, tracer } = traced();
    await runtime.invoke("guarded", undefined, { actor: dana, context: {}, surface: "aiSdk" });
    const call = root(tracer.spans);
    const [batch, ...rest] = tracer.named("agent.policy_evaluation");
    expect(rest).toEqual([]);
    expect(batch!.parent).toBe(call);
    expect(batch!.attributes).toEqual({ "orpc_agent.capability_id": "guarded", "orpc_agent.surface": "aiSdk" });
    expect(batch!.status).toBe("ok");
    expect(tracer.spans.map((s) => s.name)).toEqual(["agent.capability_call", "agent.policy_evaluation", "agent.procedure_execution"]);
    expectEachEndedOnce(tracer.spans);
  });

  it("a failing policy batch ends its span with error and the root as failed/POLICY_FAILED", async () => {
    const { runtime, tracer } = traced();
    await runtime.invoke("broken", undefined, { actor: dana, context: {} });
    const call = root(tracer.spans);
    expect(tracer.named("agent.policy_evaluation")[0]!.status).toBe("error");
    expect(tracer.named("agent.procedure_execution")).toEqual([]);
    expect(call.attributes).toMatchObject({ "orpc_agent.outcome": "failed", "orpc_agent.error_code": "POLICY_FAILED", "orpc_agent.attempt": 0 });
    expect(call.status).toBe("error");
    expect(call.errors).toHaveLength(1);
    expect((call.errors[0] as CapabilityError).code).toBe("POLICY_FAILED");
    expectEachEndedOnce(tracer.spans);
  });

  it("a handler failure ends failed/EXECUTION_FAILED with status error after recordError", async () => {
    const { runtime, tracer } = traced();
    await runtime.invoke("throws", undefined, { actor: dana, context: {} });
    const call = root(tracer.spans);
    expect(call.attributes).toMatchObject({ "orpc_agent.outcome": "failed", "orpc_agent.error_code": "EXECUTION_FAILED", "orpc_agent.attempt": 1 });
    expect(call.status).toBe("error");
    expect(call.errors.map((e) => (e as CapabilityError).code)).toEqual(["EXECUTION_FAILED"]);
    expect(tracer.named("agent.procedure_execution")[0]!.status).toBe("error");
    expectEachEndedOnce(tracer.spans);
  });

  it("a timeout ends cancelled/TIMEOUT with status error", async () => {
    const { runtime, tracer } = traced();
    await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    const call = root(tracer.spans);
    expect(call.attributes).toMatchObject({ "orpc_agent.outcome": "cancelled", "orpc_agent.error_code": "TIMEOUT" });
    expect(call.status).toBe("error");
    expect(call.errors).toHaveLength(1);
    expectEachEndedOnce(tracer.spans);
  });

  it("an unknown capability still gets a root span ending failed, without side_effect or risk", async () => {
    const { runtime, tracer } = traced();
    await runtime.invoke("nope", undefined, { actor: dana, context: {} });
    const call = root(tracer.spans);
    expect(call.attributes).toMatchObject({ "orpc_agent.outcome": "failed", "orpc_agent.error_code": "CAPABILITY_NOT_FOUND" });
    expect("orpc_agent.side_effect" in call.attributes).toBe(false);
    expect(call.status).toBe("error");
  });

  it("the approval gate opens agent.approval_request; suspension ends the root ok with approval_id", async () => {
    const { runtime, tracer } = traced();
    const result = await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {}, surface: "aiSdk" });
    expect(result.status).toBe("approval-required");
    if (result.status !== "approval-required") return;
    const call = root(tracer.spans);
    const [request] = tracer.named("agent.approval_request");
    expect(request!.parent).toBe(call);
    expect(request!.attributes).toEqual({
      "orpc_agent.capability_id": "refund",
      "orpc_agent.approval_id": result.approval.id,
      "orpc_agent.execution_id": result.executionId,
    });
    expect(request!.status).toBe("ok");
    expect(call.attributes).toMatchObject({ "orpc_agent.outcome": "approval-required", "orpc_agent.approval_id": result.approval.id });
    expect("orpc_agent.error_code" in call.attributes).toBe(false);
    expect(call.status).toBe("ok");
    expect(tracer.named("agent.procedure_execution")).toEqual([]);
    expectEachEndedOnce(tracer.spans);
  });

  it("the resume root span carries approval_id from the start and a new execution id", async () => {
    const { runtime, tracer } = traced();
    const pending = await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {}, surface: "aiSdk" });
    if (pending.status !== "approval-required") throw new Error("expected a suspension");
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    tracer.spans.length = 0;
    const done = await runtime.resume(pending.approval.id, { context: {} });
    expect(done.status).toBe("completed");
    const call = root(tracer.spans);
    expect(call.startAttributes).toMatchObject({
      "orpc_agent.approval_id": pending.approval.id,
      "orpc_agent.execution_id": done.executionId,
      "orpc_agent.capability_id": "refund",
      "orpc_agent.actor_id": "dana",
    });
    expect(done.executionId).not.toBe(pending.executionId);
    expect(call.attributes).toMatchObject({ "orpc_agent.outcome": "completed", "orpc_agent.side_effect": "write", "orpc_agent.risk": "high" });
    expect(tracer.named("agent.procedure_execution")[0]!.parent).toBe(call);
    expectEachEndedOnce(tracer.spans);
  });

  it("describe opens no spans", async () => {
    const { runtime, tracer } = traced();
    const tools = await runtime.describe("aiSdk", { actor: dana, context: {} });
    expect(tools.length).toBeGreaterThan(0);
    expect(tracer.spans).toEqual([]);
  });

  it("without a tracing adapter every outcome still works", async () => {
    const runtime = createAgentRuntime({ governance, audit: () => {}, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    expect((await runtime.invoke("get", { id: "o1" }, { actor: dana, context: {} })).status).toBe("completed");
    expect((await runtime.invoke("throws", undefined, { actor: dana, context: {} })).status).toBe("failed");
    expect((await runtime.invoke("broken", undefined, { actor: dana, context: {} })).status).toBe("failed");
    expect((await runtime.invoke("slow", undefined, { actor: dana, context: {} })).status).toBe("cancelled");
    const pending = await runtime.invoke("refund", { amount: 1 }, { actor: dana, context: {} });
    expect(pending.status).toBe("approval-required");
    if (pending.status !== "approval-required") return;
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    expect((await runtime.resume(pending.approval.id, { context: {} })).status).toBe("completed");
  });
});
