import { context, trace } from "@opentelemetry/api";
import type { SpanHandle } from "@orpc-agent/core";
import { beforeEach, describe, expect, it } from "vitest";
import { createRecorder, useAsyncContext } from "./support/recorder.js";
import { dana } from "./support/registry.js";
import { createTracedRuntime } from "./support/runtime.js";
import { spanNamed, spanTree } from "./support/span-tree.js";

useAsyncContext();

const recorder = createRecorder();
beforeEach(() => recorder.reset());
const opts = { actor: dana, context: {} };

describe("parenting (adapters.md §6: parent = the given handle's span, else context.active())", () => {
  it("a call made inside an active span nests under it, in the same trace", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const http = recorder.tracer.startSpan("http.request");
    const result = await context.with(trace.setSpan(context.active(), http), () => runtime.invoke("orders.get", { id: "o1" }, opts));
    http.end();
    expect(result.status).toBe("completed");
    expect(spanTree(recorder.spans())).toEqual([
      {
        name: "http.request",
        children: [
          { name: "agent.capability_call", children: [{ name: "agent.policy_evaluation", children: [] }, { name: "agent.procedure_execution", children: [] }] },
        ],
      },
    ]);
    const root = spanNamed(recorder.spans(), "agent.capability_call");
    expect(root.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(new Set(recorder.spans().map((s) => s.spanContext().traceId))).toEqual(new Set([http.spanContext().traceId]));
  });

  it("concurrent calls under different active spans each nest under their own", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const a = recorder.tracer.startSpan("tool.a");
    const b = recorder.tracer.startSpan("tool.b");
    await Promise.all([
      context.with(trace.setSpan(context.active(), a), () => runtime.invoke("orders.flaky", { id: "a" }, opts)),
      context.with(trace.setSpan(context.active(), b), () => runtime.invoke("orders.get", { id: "b" }, opts)),
    ]);
    a.end();
    b.end();
    const roots = recorder.spans().filter((s) => s.name === "agent.capability_call");
    const parentOf = (capabilityId: string) => roots.find((s) => s.attributes["orpc_agent.capability_id"] === capabilityId)?.parentSpanContext?.spanId;
    expect(parentOf("orders.flaky")).toBe(a.spanContext().spanId);
    expect(parentOf("orders.get")).toBe(b.spanContext().spanId);
    // Children follow their own root, not whichever context happens to be active when they start.
    for (const child of recorder.spans().filter((s) => s.name !== "agent.capability_call" && s.name.startsWith("agent."))) {
      const root = roots.find((r) => r.attributes["orpc_agent.capability_id"] === child.attributes["orpc_agent.capability_id"]);
      expect(child.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    }
  });

  it("without an active span the capability_call is a trace root", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    await runtime.invoke("orders.get", { id: "o1" }, opts);
    expect(spanNamed(recorder.spans(), "agent.capability_call").parentSpanContext).toBeUndefined();
  });

  it("a child started inside some other active span still parents on the given handle", () => {
    const root = recorder.tracing.startSpan("agent.capability_call", {});
    const unrelated = recorder.tracer.startSpan("unrelated");
    context.with(trace.setSpan(context.active(), unrelated), () => recorder.tracing.startSpan("agent.procedure_execution", {}, root).end("ok"));
    unrelated.end();
    root.end("ok");
    const child = spanNamed(recorder.spans(), "agent.procedure_execution");
    expect(child.parentSpanContext?.spanId).toBe(spanNamed(recorder.spans(), "agent.capability_call").spanContext().spanId);
  });

  it("a parent handle this adapter did not create falls back to the active context", () => {
    const foreign: SpanHandle = { setAttributes() {}, recordError() {}, end() {} };
    const active = recorder.tracer.startSpan("active");
    context.with(trace.setSpan(context.active(), active), () => recorder.tracing.startSpan("agent.policy_evaluation", {}, foreign).end("ok"));
    active.end();
    expect(spanNamed(recorder.spans(), "agent.policy_evaluation").parentSpanContext?.spanId).toBe(active.spanContext().spanId);
  });
});
