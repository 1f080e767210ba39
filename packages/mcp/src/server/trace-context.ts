import { ConfigurationError } from "@orpc-agent/core/adapter";

/** Carried over `_meta` by MCP clients (W3C Trace Context). */
export type MCPTraceCarrier = { traceparent: string; tracestate?: string };

type TraceContextOption = (<T>(carrier: MCPTraceCarrier, run: () => Promise<T>) => Promise<T>) | undefined;

/**
 * Runs `work` inside the request's W3C trace context when the app asked for it and the request `_meta` carries a
 * `traceparent`. A failing hook must not fail the call, nor run it twice: the call runs once either way.
 */
export async function withRequestTrace<T>(option: TraceContextOption, meta: Record<string, unknown> | undefined, work: () => Promise<T>): Promise<T> {
  const traceparent = meta?.traceparent;
  if (option === undefined || typeof traceparent !== "string" || traceparent.length === 0) return work();
  const tracestate = meta?.tracestate;
  const carrier: MCPTraceCarrier = typeof tracestate === "string" ? { traceparent, tracestate } : { traceparent };
  let started: Promise<T> | undefined;
  const once = () => (started ??= work());
  try {
    return await option(carrier, once);
  } catch (error) {
    if (started !== undefined) throw error;
    return once();
  }
}

/** A `traceContext` option the server cannot call is refused at construction, naming the function the app called. */
export function assertTraceContextOption(option: unknown, adapter: string): void {
  if (option !== undefined && typeof option !== "function") {
    throw new ConfigurationError(`${adapter}: options.traceContext must be a function (carrier, run) => run() inside that trace context.`);
  }
}
