import { SpanStatusCode, type Span } from "@opentelemetry/api";
import type { SpanAttributes, SpanHandle } from "@orpc-agent/core";
import { withoutActorId } from "./actor-id.js";
import { exceptionEventAttributes } from "./exception-event.js";

/** Core's SpanHandle over one OpenTelemetry span. The span stays private; only child spans reach it. */
export class OpenTelemetrySpanHandle implements SpanHandle {
  readonly #span: Span;
  readonly #keepActorId: boolean;

  constructor(span: Span, keepActorId: boolean) {
    this.#span = span;
    this.#keepActorId = keepActorId;
  }

  /** The OTel span behind a handle from this package, or `undefined` for any other handle (e.g. core's no-op). */
  static spanOf(handle: SpanHandle): Span | undefined {
    return typeof handle === "object" && handle !== null && #span in handle ? handle.#span : undefined;
  }

  setAttributes(attributes: SpanAttributes): void {
    // Stripped on every call, not only at start: core may set attributes at any stage (docs/architecture/spec/adapters.md#adapters-6).
    this.#span.setAttributes(this.#keepActorId ? attributes : withoutActorId(attributes));
  }

  recordError(error: unknown): void {
    this.#span.addEvent("exception", exceptionEventAttributes(error));
  }

  end(status: "ok" | "error"): void {
    this.#span.setStatus({ code: status === "ok" ? SpanStatusCode.OK : SpanStatusCode.ERROR });
    this.#span.end();
  }
}
