// Shared test doubles for the stage 10–15, audit and tracing tests: a recording tracer,
// collecting sinks, deferred promises and a settable clock. Test-only; nothing here is public API.
import type { Actor, AgentAuditEvent, AgentAuditEventType, SpanAttributes, SpanHandle, TracingAdapter } from "../../src/index.js";

export const dana: Actor = Object.freeze({ id: "dana", kind: "user" });
export const priya: Actor = Object.freeze({ id: "priya", kind: "user" });

export type Deferred<T> = {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
};

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback and one macrotask run. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A sink that keeps every event it receives. */
export function collectingSink() {
  const events: AgentAuditEvent[] = [];
  const sink = (event: AgentAuditEvent): void => {
    events.push(event);
  };
  const types = (): AgentAuditEventType[] => events.map((e) => e.type);
  const ofType = <T extends AgentAuditEventType>(type: T) => events.filter((e): e is Extract<AgentAuditEvent, { type: T }> => e.type === type);
  return { events, sink, types, ofType };
}

/** A clock for `now`: tests move it explicitly; it never drives timers. */
export function manualClock(start = Date.UTC(2030, 0, 1, 12, 0, 0)) {
  let current = start;
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
    at: (offsetMs: number) => new Date(start + offsetMs),
  };
}

export type RecordedSpan = {
  name: string;
  startAttributes: SpanAttributes;
  attributes: SpanAttributes;
  parent: RecordedSpan | undefined;
  errors: unknown[];
  status: "ok" | "error" | undefined;
  endCount: number;
};

/** A TracingAdapter that records every span, its parent, its attributes and how it ended. */
export function recordingTracer() {
  const spans: RecordedSpan[] = [];
  const byHandle = new WeakMap<SpanHandle, RecordedSpan>();
  const adapter: TracingAdapter = {
    startSpan(name, attributes, parent) {
      const span: RecordedSpan = {
        name,
        startAttributes: { ...attributes },
        attributes: { ...attributes },
        parent: parent === undefined ? undefined : byHandle.get(parent),
        errors: [],
        status: undefined,
        endCount: 0,
      };
      if (parent !== undefined && span.parent === undefined) throw new Error(`span ${name} got a parent this tracer never created`);
      const handle: SpanHandle = {
        setAttributes(a) {
          Object.assign(span.attributes, a);
        },
        recordError(e) {
          span.errors.push(e);
        },
        end(status) {
          span.endCount++;
          span.status = status;
        },
      };
      byHandle.set(handle, span);
      spans.push(span);
      return handle;
    },
  };
  const named = (name: string) => spans.filter((s) => s.name === name);
  return { adapter, spans, named };
}

/** JSON text of an audit event, as a sink would persist it. */
export const eventJson = (event: AgentAuditEvent): string => JSON.stringify(event);
