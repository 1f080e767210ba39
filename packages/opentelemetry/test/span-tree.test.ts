import { SpanStatusCode } from "@opentelemetry/api";
import { beforeEach, describe, expect, it } from "vitest";
import { createRecorder, useAsyncContext } from "./support/recorder.js";
import { dana, mallory } from "./support/registry.js";
import { createTracedRuntime, requestAndApproveRefund } from "./support/runtime.js";
import { spanNamed, spanTree } from "./support/span-tree.js";

useAsyncContext();

const recorder = createRecorder();
beforeEach(() => recorder.reset());
const opts = { actor: dana, context: {} };

describe("span tree of a governed call (adapters.md §6, core.md §12)", () => {
  it("a completed call is one capability_call with its policy batch and its attempt as children", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.get", { id: "o1" }, opts);
    expect(result.status).toBe("completed");
    expect(spanTree(recorder.spans())).toEqual([
      { name: "agent.capability_call", children: [{ name: "agent.policy_evaluation", children: [] }, { name: "agent.procedure_execution", children: [] }] },
    ]);
    const spans = recorder.spans();
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it("a retried read has one procedure_execution per attempt, the failed one in error", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.flaky", { id: "o1" }, opts);
    expect(result.status).toBe("completed");
    expect(spanTree(recorder.spans())).toEqual([
      { name: "agent.capability_call", children: [{ name: "agent.procedure_execution", children: [] }, { name: "agent.procedure_execution", children: [] }] },
    ]);
    const attempts = recorder.spans().filter((s) => s.name === "agent.procedure_execution");
    attempts.sort((a, b) => (a.attributes["orpc_agent.attempt"] as number) - (b.attributes["orpc_agent.attempt"] as number));
    expect(attempts.map((s) => [s.attributes["orpc_agent.attempt"], s.status.code])).toEqual([
      [1, SpanStatusCode.ERROR],
      [2, SpanStatusCode.OK],
    ]);
    const root = spanNamed(recorder.spans(), "agent.capability_call");
    expect(root.attributes["orpc_agent.attempt"]).toBe(2);
    expect(root.status.code).toBe(SpanStatusCode.OK);
  });

  it("an approval-required call has an approval_request child and no procedure_execution", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.refund", { id: "o1", amount: 25 }, opts);
    expect(result.status).toBe("approval-required");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [{ name: "agent.approval_request", children: [] }] }]);
  });

  it("a resume is a new capability_call (with the approval id from the start) that runs the procedure", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const pending = await requestAndApproveRefund(runtime, dana, "n");
    recorder.reset();
    const done = await runtime.resume(pending.approval.id, { context: {} });
    expect(done.status).toBe("completed");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [{ name: "agent.procedure_execution", children: [] }] }]);
    const root = spanNamed(recorder.spans(), "agent.capability_call");
    expect(root.attributes["orpc_agent.approval_id"]).toBe(pending.approval.id);
    expect(root.attributes["orpc_agent.execution_id"]).toBe(done.executionId);
    expect(root.attributes["orpc_agent.execution_id"]).not.toBe(pending.executionId);
  });

  it("a policy denial ends after the policy batch: no procedure_execution, root failed with POLICY_DENIED", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: mallory, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("POLICY_DENIED");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [{ name: "agent.policy_evaluation", children: [] }] }]);
    const root = spanNamed(recorder.spans(), "agent.capability_call");
    expect(root.attributes["orpc_agent.outcome"]).toBe("failed");
    expect(root.attributes["orpc_agent.error_code"]).toBe("POLICY_DENIED");
    // A deny is a verdict, not a failed batch: the batch span itself is fine.
    expect(spanNamed(recorder.spans(), "agent.policy_evaluation").status.code).toBe(SpanStatusCode.OK);
  });

  it("a failing policy batch ends its span in error and the root with POLICY_FAILED", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.guarded", { id: "o1" }, opts);
    expect(result.status === "failed" && result.error.code).toBe("POLICY_FAILED");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [{ name: "agent.policy_evaluation", children: [] }] }]);
    expect(spanNamed(recorder.spans(), "agent.policy_evaluation").status.code).toBe(SpanStatusCode.ERROR);
    expect(spanNamed(recorder.spans(), "agent.capability_call").attributes["orpc_agent.error_code"]).toBe("POLICY_FAILED");
  });

  it("a failed procedure ends its attempt and the root in error", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.broken", { id: "o1" }, opts);
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [{ name: "agent.procedure_execution", children: [] }] }]);
    expect(recorder.spans().map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR]);
  });

  it("a timeout ends the attempt in error and the root as cancelled with TIMEOUT", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.slow", { id: "o1" }, opts);
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [{ name: "agent.procedure_execution", children: [] }] }]);
    expect(spanNamed(recorder.spans(), "agent.procedure_execution").status.code).toBe(SpanStatusCode.ERROR);
    const root = spanNamed(recorder.spans(), "agent.capability_call");
    expect(root.attributes["orpc_agent.outcome"]).toBe("cancelled");
    expect(root.attributes["orpc_agent.error_code"]).toBe("TIMEOUT");
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("an unknown capability is a lone capability_call that failed", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.nope", { id: "o1" }, opts);
    expect(result.status === "failed" && result.error.code).toBe("CAPABILITY_NOT_FOUND");
    expect(spanTree(recorder.spans())).toEqual([{ name: "agent.capability_call", children: [] }]);
    expect(spanNamed(recorder.spans(), "agent.capability_call").attributes["orpc_agent.outcome"]).toBe("failed");
  });
});
