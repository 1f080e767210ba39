// Public entry of @orpc-agent/opentelemetry (adapters.md §6).
export { createOpenTelemetryTracing } from "./create-open-telemetry-tracing.js";
export type { OpenTelemetryTracingOptions } from "./create-open-telemetry-tracing.js";
