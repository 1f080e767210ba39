import { context, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { createOpenTelemetryTracing } from "../src/index.js";
import { dana } from "./support/registry.js";
import { createTracedRuntime, requestAndApproveRefund } from "./support/runtime.js";

// This file registers no tracer provider and no context manager: the application has no SDK.
describe("without an OpenTelemetry SDK (adapters.md §6: none registered ⇒ no-ops)", () => {
  it("the global API is the no-op one in this file", () => {
    const probe = trace.getTracer("probe").startSpan("probe");
    expect(probe.isRecording()).toBe(false);
    expect(trace.getSpan(context.active())).toBeUndefined();
  });

  it("every governed outcome is unchanged by the adapter", async () => {
    const traced = createTracedRuntime(createOpenTelemetryTracing());
    const plain = createTracedRuntime(undefined);
    const run = async ({ runtime }: typeof traced) => {
      const outcomes = [
        await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} }),
        await runtime.invoke("orders.flaky", { id: "o1" }, { actor: dana, context: {} }),
        await runtime.invoke("orders.broken", { id: "o1" }, { actor: dana, context: {} }),
        await runtime.invoke("orders.slow", { id: "o1" }, { actor: dana, context: {} }),
      ];
      const pending = await requestAndApproveRefund(runtime, dana, "n");
      outcomes.push(await runtime.resume(pending.approval.id, { context: {} }));
      return outcomes.map((r) => (r.status === "completed" ? [r.status, r.output] : r.status === "approval-required" ? [r.status] : [r.status, r.error.code]));
    };
    expect(await run(traced)).toEqual(await run(plain));
    expect(traced.audit.map((e) => e.type)).toEqual(plain.audit.map((e) => e.type));
  });

  it("handles from the default tracer accept every call without throwing", () => {
    const tracing = createOpenTelemetryTracing();
    const root = tracing.startSpan("agent.capability_call", { "orpc_agent.actor_id": "u_1" });
    const child = tracing.startSpan("agent.procedure_execution", {}, root);
    child.setAttributes({ "orpc_agent.attempt": 1 });
    child.recordError(new Error("x"));
    child.end("error");
    root.end("ok");
    // Twice, as a defensive caller might: the no-op span ignores it.
    expect(() => root.end("ok")).not.toThrow();
  });
});
