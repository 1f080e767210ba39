import { context, trace, type Tracer } from "@opentelemetry/api";
import type { SpanAttributes, SpanHandle, TracingAdapter } from "@orpc-agent/core";
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { withoutActorId } from "./actor-id.js";
import { OpenTelemetrySpanHandle } from "./span-handle.js";

/** Options of {@link createOpenTelemetryTracing}. */
export type OpenTelemetryTracingOptions = {
  /**
   * Where spans go: whatever provider the app registered globally.
   * @default trace.getTracer("orpc-agent")
   */
  tracer?: Tracer;
  /**
   * Keep `orpc_agent.actor_id` on spans; off because an actor id is personal data in most apps.
   * @default false
   */
  actorIdAttribute?: boolean;
};

const OPTION_KEYS = ["tracer", "actorIdAttribute"];

/**
 * Core's TracingAdapter over `@opentelemetry/api`. The application owns the SDK, exporters, samplers and
 * propagators; with none registered every span is a no-op. Spans and attributes are exactly core's (docs/architecture/spec/core.md#core-12).
 *
 * @example
 * import { createAgentRuntime, type AgentGovernance } from "@orpc-agent/core";
 * import { createOpenTelemetryTracing } from "@orpc-agent/opentelemetry";
 * declare const governance: AgentGovernance;
 * const runtime = createAgentRuntime({ governance, tracing: createOpenTelemetryTracing() });
 */
export function createOpenTelemetryTracing(options?: OpenTelemetryTracingOptions): TracingAdapter {
  assertOptions(options);
  const tracer = options?.tracer ?? trace.getTracer("orpc-agent");
  const keepActorId = options?.actorIdAttribute === true;
  return {
    startSpan(name: string, attributes: SpanAttributes, parent?: SpanHandle): SpanHandle {
      // Parent = the given handle's span, else the active context, so the call nests under HTTP or ai.toolCall spans.
      const active = context.active();
      const parentSpan = parent === undefined ? undefined : OpenTelemetrySpanHandle.spanOf(parent);
      const parentContext = parentSpan === undefined ? active : trace.setSpan(active, parentSpan);
      const span = tracer.startSpan(name, { attributes: keepActorId ? attributes : withoutActorId(attributes) }, parentContext);
      return new OpenTelemetrySpanHandle(span, keepActorId);
    },
  };
}

function assertOptions(options: unknown): asserts options is OpenTelemetryTracingOptions | undefined {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ConfigurationError("createOpenTelemetryTracing(options?): options must be an object { tracer?, actorIdAttribute? }.");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new ConfigurationError(`createOpenTelemetryTracing: unknown option "${key}"; allowed: tracer, actorIdAttribute.`);
    }
  }
  const { tracer, actorIdAttribute } = options as { tracer?: unknown; actorIdAttribute?: unknown };
  if (tracer !== undefined && typeof (tracer as { startSpan?: unknown } | null)?.startSpan !== "function") {
    throw new ConfigurationError('createOpenTelemetryTracing: `tracer` must be an OpenTelemetry Tracer, e.g. trace.getTracer("my-app").');
  }
  if (actorIdAttribute !== undefined && typeof actorIdAttribute !== "boolean") {
    throw new ConfigurationError("createOpenTelemetryTracing: `actorIdAttribute` must be a boolean when given.");
  }
}
