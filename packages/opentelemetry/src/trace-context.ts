import { context, createTraceState, trace, TraceFlags, type SpanContext } from "@opentelemetry/api";

/** W3C Trace Context as protocols carry it (MCP puts it in a request's `_meta`). */
export type TraceCarrier = { traceparent: string; tracestate?: string };

// version-traceid-parentid-flags; a future version may append fields after the flags (W3C Trace Context §3.2.4).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Runs `run` with the carrier's remote span as the active parent, so the runtime's `agent.capability_call` span
 * (parented by `context.active()`) joins the caller's trace. Parsed here rather than through the global
 * propagator, because the protocol fixes the W3C format whatever propagator the app registered. A malformed
 * `traceparent` is ignored: the call runs in the current context.
 *
 * @example
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
 * import { withTraceContext } from "@orpc-agent/opentelemetry";
 * declare const runtime: AgentRuntime, options: MCPHandlerOptions;
 * createMCPHandler(runtime, { ...options, traceContext: withTraceContext });
 */
export function withTraceContext<T>(carrier: TraceCarrier, run: () => Promise<T>): Promise<T> {
  const parent = remoteSpanContext(carrier);
  if (parent === undefined) return run();
  return context.with(trace.setSpanContext(context.active(), parent), run);
}

function remoteSpanContext(carrier: TraceCarrier): SpanContext | undefined {
  const match = typeof carrier?.traceparent === "string" ? TRACEPARENT.exec(carrier.traceparent.trim()) : null;
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  const spanContext: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED, isRemote: true };
  if (typeof carrier.tracestate === "string" && carrier.tracestate.length > 0) spanContext.traceState = createTraceState(carrier.tracestate);
  return spanContext;
}
