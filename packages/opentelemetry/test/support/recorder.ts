import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll } from "vitest";
import { createOpenTelemetryTracing, type OpenTelemetryTracingOptions } from "../../src/index.js";

/** A real SDK pipeline (provider → simple processor → in-memory exporter) behind the adapter under test. */
export function createRecorder(options: Omit<OpenTelemetryTracingOptions, "tracer"> = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("orpc-agent-test");
  return {
    tracer,
    tracing: createOpenTelemetryTracing({ tracer, ...options }),
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
  };
}

/** Registers the AsyncLocalStorage context manager for the file, as a Node application would. */
export function useAsyncContext(): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });
}
