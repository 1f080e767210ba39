import { NOOP_SPAN } from "./no-op.js";
import type { SpanAttributes, SpanHandle, TracingAdapter } from "./types.js";

// Tracing observes a call; it never decides one. A tracer that throws must not cost a call its outcome (an attempt
// whose span end threw used to hang with no result: SI-12), so the runtime only ever sees the adapter through this.

const report = (operation: string, err: unknown): void => {
  try {
    console.error(`[orpc-agent] tracing adapter failed in ${operation}:`, err);
  } catch {
    // Reporting is best effort too.
  }
};

/** A span whose every method contains its adapter's failures; the adapter still receives its own span as parent. */
class ContainedSpan implements SpanHandle {
  constructor(readonly inner: SpanHandle) {}

  setAttributes(attributes: SpanAttributes): void {
    try {
      this.inner.setAttributes(attributes);
    } catch (err) {
      report("span.setAttributes", err);
    }
  }

  recordError(error: unknown): void {
    try {
      this.inner.recordError(error);
    } catch (err) {
      report("span.recordError", err);
    }
  }

  end(status: "ok" | "error"): void {
    try {
      this.inner.end(status);
    } catch (err) {
      report("span.end", err);
    }
  }
}

/** The adapter as the runtime calls it: a failing `startSpan` yields a span that records nothing. */
export function containTracing(adapter: TracingAdapter): TracingAdapter {
  return {
    startSpan(name, attributes, parent) {
      const own = parent instanceof ContainedSpan ? parent.inner : parent;
      let span: SpanHandle;
      try {
        span = own === undefined ? adapter.startSpan(name, attributes) : adapter.startSpan(name, attributes, own);
      } catch (err) {
        report("startSpan", err);
        return NOOP_SPAN;
      }
      if (typeof span === "object" && span !== null) return new ContainedSpan(span);
      report("startSpan", new TypeError(`startSpan returned ${span === null ? "null" : typeof span}, not a span.`));
      return NOOP_SPAN;
    },
  };
}
