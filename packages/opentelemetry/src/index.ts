// Public entry of @orpc-agent/opentelemetry (docs/architecture/spec/adapters.md#adapters-6).
export { createOpenTelemetryTracing } from "./create-open-telemetry-tracing.js";
export type { OpenTelemetryTracingOptions } from "./create-open-telemetry-tracing.js";
export { withTraceContext } from "./trace-context.js";
export type { TraceCarrier } from "./trace-context.js";
