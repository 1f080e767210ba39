import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, it } from "vitest";
import { createOpenTelemetryTracing } from "../src/index.js";
import { dana } from "./support/registry.js";
import { createTracedRuntime } from "./support/runtime.js";

afterAll(() => trace.disable());

describe("default tracer (adapters.md §6: trace.getTracer(\"orpc-agent\"))", () => {
  it("uses the globally registered provider, even one registered after the adapter was created", async () => {
    const tracing = createOpenTelemetryTracing();
    const exporter = new InMemorySpanExporter();
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))).toBe(true);
    const { runtime } = createTracedRuntime(tracing);
    await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(["agent.capability_call", "agent.policy_evaluation", "agent.procedure_execution"]);
    expect(new Set(spans.map((s) => s.instrumentationScope.name))).toEqual(new Set(["orpc-agent"]));
  });
});
