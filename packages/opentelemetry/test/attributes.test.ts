import { beforeEach, describe, expect, it } from "vitest";
import { createRecorder, useAsyncContext } from "./support/recorder.js";
import { dana, mallory } from "./support/registry.js";
import { createTracedRuntime, requestAndApproveRefund } from "./support/runtime.js";
import { exportedText, spanNamed } from "./support/span-tree.js";

useAsyncContext();

const recorder = createRecorder();
beforeEach(() => recorder.reset());
const opts = { actor: dana, context: {} };
const named = (name: string) => spanNamed(recorder.spans(), name);

describe("attributes are exactly core's (core.md §12)", () => {
  it("a completed call: root, policy batch and attempt", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.get", { id: "o1" }, { ...opts, surface: "aiSdk" });
    expect(named("agent.capability_call").attributes).toEqual({
      "orpc_agent.capability_id": "orders.get",
      "orpc_agent.surface": "aiSdk",
      "orpc_agent.actor_kind": "user",
      "orpc_agent.execution_id": result.executionId,
      "orpc_agent.side_effect": "read",
      "orpc_agent.risk": "low",
      "orpc_agent.outcome": "completed",
      "orpc_agent.attempt": 1,
    });
    expect(named("agent.policy_evaluation").attributes).toEqual({ "orpc_agent.capability_id": "orders.get", "orpc_agent.surface": "aiSdk" });
    expect(named("agent.procedure_execution").attributes).toEqual({
      "orpc_agent.capability_id": "orders.get",
      "orpc_agent.execution_id": result.executionId,
      "orpc_agent.attempt": 1,
    });
  });

  it("an approval-required call: approval id on the root and on approval_request", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.refund", { id: "o1", amount: 25 }, opts);
    if (result.status !== "approval-required") throw new Error(result.status);
    expect(named("agent.capability_call").attributes).toEqual({
      "orpc_agent.capability_id": "orders.refund",
      "orpc_agent.surface": "direct",
      "orpc_agent.actor_kind": "user",
      "orpc_agent.execution_id": result.executionId,
      "orpc_agent.side_effect": "write",
      "orpc_agent.risk": "high",
      "orpc_agent.outcome": "approval-required",
      "orpc_agent.approval_id": result.approval.id,
      "orpc_agent.attempt": 0,
    });
    expect(named("agent.approval_request").attributes).toEqual({
      "orpc_agent.capability_id": "orders.refund",
      "orpc_agent.approval_id": result.approval.id,
      "orpc_agent.execution_id": result.executionId,
    });
  });

  it("a resume: the record's surface and actor kind, the approval id and the new execution id", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const pending = await requestAndApproveRefund(runtime, dana, "n");
    recorder.reset();
    const done = await runtime.resume(pending.approval.id, { context: {} });
    expect(named("agent.capability_call").attributes).toEqual({
      "orpc_agent.capability_id": "orders.refund",
      "orpc_agent.surface": "direct",
      "orpc_agent.actor_kind": "user",
      "orpc_agent.execution_id": done.executionId,
      "orpc_agent.approval_id": pending.approval.id,
      "orpc_agent.side_effect": "write",
      "orpc_agent.risk": "high",
      "orpc_agent.outcome": "completed",
      "orpc_agent.attempt": 1,
    });
  });

  it("a failure: outcome, error code and attempts so far", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.slow", { id: "o1" }, opts);
    expect(named("agent.capability_call").attributes).toEqual({
      "orpc_agent.capability_id": "orders.slow",
      "orpc_agent.surface": "direct",
      "orpc_agent.actor_kind": "user",
      "orpc_agent.execution_id": result.executionId,
      "orpc_agent.side_effect": "read",
      "orpc_agent.risk": "low",
      "orpc_agent.outcome": "cancelled",
      "orpc_agent.error_code": "TIMEOUT",
      "orpc_agent.attempt": 1,
    });
  });

  it("every attribute key carries the orpc_agent. prefix", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    await runtime.invoke("orders.flaky", { id: "o1" }, opts);
    await runtime.invoke("orders.get", { id: "o1" }, { actor: mallory, context: {} });
    const keys = recorder.spans().flatMap((s) => Object.keys(s.attributes));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => !k.startsWith("orpc_agent."))).toEqual([]);
  });
});

describe("orpc_agent.actor_id (adapters.md §6)", () => {
  it("is absent by default, from every span of every run", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const pending = await requestAndApproveRefund(runtime, dana, "n");
    await runtime.resume(pending.approval.id, { context: {} });
    await runtime.invoke("orders.get", { id: "o1" }, opts);
    await runtime.invoke("orders.broken", { id: "o1" }, opts);
    expect(recorder.spans().length).toBeGreaterThan(4);
    expect(recorder.spans().filter((s) => "orpc_agent.actor_id" in s.attributes)).toEqual([]);
    expect(exportedText(recorder.spans())).not.toContain(dana.id);
  });

  it("is kept on the root span when actorIdAttribute: true", async () => {
    const optedIn = createRecorder({ actorIdAttribute: true });
    const { runtime } = createTracedRuntime(optedIn.tracing);
    await runtime.invoke("orders.get", { id: "o1" }, opts);
    expect(spanNamed(optedIn.spans(), "agent.capability_call").attributes["orpc_agent.actor_id"]).toBe(dana.id);
  });

  it("is stripped from setAttributes too, not only at start, unless opted in", () => {
    const span = recorder.tracing.startSpan("agent.capability_call", { "orpc_agent.actor_id": "u_start", "orpc_agent.surface": "mcp" });
    span.setAttributes({ "orpc_agent.actor_id": "u_later", "orpc_agent.outcome": "completed" });
    span.end("ok");
    expect(named("agent.capability_call").attributes).toEqual({ "orpc_agent.surface": "mcp", "orpc_agent.outcome": "completed" });

    const optedIn = createRecorder({ actorIdAttribute: true });
    const kept = optedIn.tracing.startSpan("agent.capability_call", { "orpc_agent.actor_id": "u_start" });
    kept.setAttributes({ "orpc_agent.actor_id": "u_later" });
    kept.end("ok");
    expect(spanNamed(optedIn.spans(), "agent.capability_call").attributes).toEqual({ "orpc_agent.actor_id": "u_later" });
  });

  it("stripping never mutates the attributes object core passed in", () => {
    const attributes = Object.freeze({ "orpc_agent.actor_id": "u_1", "orpc_agent.surface": "direct" });
    const span = recorder.tracing.startSpan("agent.capability_call", attributes);
    span.setAttributes(attributes);
    span.end("ok");
    expect(attributes).toEqual({ "orpc_agent.actor_id": "u_1", "orpc_agent.surface": "direct" });
  });
});
