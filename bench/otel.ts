// What @orpc-agent/opentelemetry adds to an invoke: a real SDK pipeline whose exporter discards everything,
// against the same runtime without tracing. Reported, not budgeted (docs/architecture/spec/core.md#core-16 has no tracing row).
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createOpenTelemetryTracing } from "@orpc-agent/opentelemetry";
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { trivial } from "./fixtures.js";
import { interleave, timeSequential } from "./harness.js";

export type OtelBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number };

/** Accepts every batch and keeps nothing, so the measurement is span creation and processing, not I/O. */
const discardingExporter: SpanExporter = {
  export(_spans: ReadableSpan[], done) {
    done({ code: 0 });
  },
  shutdown: async () => {},
};

/**
 * SimpleSpanProcessor exports every span as it ends, an upper bound on per-span cost; a BatchSpanProcessor
 * at this call rate would drop spans once its queue fills and so look cheaper than it is. The second row is
 * the adapter with no provider registered (this process registers none): what an app pays before it adds an SDK.
 */
export async function otelCost(options: { rounds: number; calls: number }): Promise<OtelBenchRow[]> {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(discardingExporter)] });
  const governance = defineGovernance({ registry: createCapabilityRegistry({ trivial }) });
  const plain = createAgentRuntime({ governance });
  const traced = createAgentRuntime({ governance, tracing: createOpenTelemetryTracing({ tracer: provider.getTracer("bench") }) });
  const noSdk = createAgentRuntime({ governance, tracing: createOpenTelemetryTracing() });
  const input = { id: "x" };
  const callOptions = { actor: { id: "bench", kind: "service" as const }, context: {} };
  const m = await interleave(
    {
      plain: () => timeSequential(() => plain.invoke("trivial", input, callOptions), options.calls),
      traced: () => timeSequential(() => traced.invoke("trivial", input, callOptions), options.calls),
      noSdk: () => timeSequential(() => noSdk.invoke("trivial", input, callOptions), options.calls),
    },
    options.rounds,
  );
  await provider.shutdown();
  return [
    { path: "invoke + OTel (SDK, no-op exporter)", subjectNs: m.traced!, baselineNs: m.plain!, ratio: m.traced! / m.plain! },
    { path: "invoke + OTel adapter, no SDK registered", subjectNs: m.noSdk!, baselineNs: m.plain!, ratio: m.noSdk! / m.plain! },
  ];
}
