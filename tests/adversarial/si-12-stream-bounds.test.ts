// SI-12 for streaming capabilities (issue 46): a handler whose output is an oRPC event iterator is bounded like any
// other. The attacks are handlers that keep yielding after the caller aborted or after a bound passed, handlers
// that ignore the abort signal, endless streams, and a consumer slow enough that a handler pulled ahead would fill
// memory. Each must end once, deliver nothing after its end, and have its iterator returned.
import { eventIterator } from "@orpc/server";
import type { AgentAuditEvent, ExecutionResult } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta } from "./support/runtime.js";

const tick = eventIterator(z.object({ n: z.number() }));

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets pending callbacks and one macrotask run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const TERMINAL = new Set(["capability.completed", "capability.failed", "capability.cancelled"]);

function terminalOf(events: readonly AgentAuditEvent[], executionId: string) {
  const terminal = events.filter((e) => e.executionId === executionId && TERMINAL.has(e.type));
  expect(terminal).toHaveLength(1);
  return terminal[0]!;
}

function codeOf(result: ExecutionResult) {
  return result.status === "failed" || result.status === "cancelled" ? result.error.code : undefined;
}

describe("SI-12: streams end at the caller's abort", () => {
  it("SI-12: a handler that ignores the abort and keeps yielding delivers nothing after it, and is returned at its next yield", async () => {
    const waiting = deferred();
    const gate = deferred();
    const trace: string[] = [];
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low" }) })
      .handler(async function* () {
        try {
          yield { n: 1 };
          yield { n: 2 };
          waiting.resolve();
          // Ignores its signal entirely.
          await gate.promise;
          trace.push("resumed");
          yield { n: 3 };
          trace.push("past-3");
          yield { n: 4 };
        } finally {
          trace.push("finally");
        }
      });
    const { runtime, events } = build({ defs: { feed } });
    const controller = new AbortController();
    const got: unknown[] = [];
    const pending = runtime.invoke("feed", {}, { actor: dana, context: {}, signal: controller.signal, onEvent: (e) => void got.push(e) });
    await waiting.promise;
    controller.abort();
    // The outcome does not wait for the handler: its gate is still closed.
    const result = await pending;
    expect(result.status).toBe("cancelled");
    expect(codeOf(result)).toBe("CANCELLED");
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);

    gate.resolve();
    for (let i = 0; i < 5; i++) await turn();
    // Its next yield was dropped and the queued return() ended it there: the body went no further.
    expect(trace).toEqual(["resumed", "finally"]);
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    const terminal = terminalOf(events, result.executionId);
    expect(terminal.type).toBe("capability.cancelled");
    expect(terminal.data).toMatchObject({ code: "CANCELLED", events: 2 });
  });

  it("SI-12: an abort while the consumer holds an event returns the iterator at once; the handler's signal is aborted", async () => {
    const trace: string[] = [];
    let handlerSignal: AbortSignal | undefined;
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low" }) })
      .handler(async function* ({ signal }) {
        handlerSignal = signal;
        try {
          for (let n = 1; ; n++) yield { n };
        } finally {
          trace.push("finally");
        }
      });
    const { runtime, events } = build({ defs: { feed } });
    const controller = new AbortController();
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, {
      actor: dana,
      context: {},
      signal: controller.signal,
      onEvent: async (e) => {
        got.push(e);
        if (got.length === 3) controller.abort();
        await turn();
      },
    });
    expect(result.status).toBe("cancelled");
    expect(got).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    // return() is called, not awaited: the handler's cleanup runs a few callbacks later, through oRPC's wrappers.
    await turn();
    expect(trace).toEqual(["finally"]);
    expect(handlerSignal?.aborted).toBe(true);
    expect(terminalOf(events, result.executionId).data).toMatchObject({ code: "CANCELLED", events: 3 });
    // The terminal event comes after every delivery: none is recorded later than it.
    expect(events.at(-1)!.type).toBe("capability.cancelled");
  });

  it("SI-12: a signal aborted before the call means the handler's iterator never starts", async () => {
    let started = false;
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low" }) })
      .handler(async function* () {
        started = true;
        yield { n: 1 };
      });
    const { runtime } = build({ defs: { feed } });
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, signal: AbortSignal.abort(), onEvent: (e) => void got.push(e) });
    expect(codeOf(result)).toBe("CANCELLED");
    expect(started).toBe(false);
    expect(got).toEqual([]);
  });
});

describe("SI-12: streams end at their bounds", () => {
  it("SI-12: the idle bound cuts off a handler that stalls between events; its late yield is never delivered", async () => {
    const gate = deferred();
    const trace: string[] = [];
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "write", risk: "low", stream: { idleTimeoutMs: 30 } }) })
      .handler(async function* () {
        try {
          yield { n: 1 };
          await gate.promise;
          yield { n: 2 };
          trace.push("past-2");
        } finally {
          trace.push("finally");
        }
      });
    const { runtime, events } = build({ defs: { feed } });
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onEvent: (e) => void got.push(e) });
    expect(result.status).toBe("cancelled");
    expect(codeOf(result)).toBe("TIMEOUT");
    // A write-like stream cut off after its first event: its effect is unknown.
    expect(result).toMatchObject({ effectStatus: "unknown" });
    gate.resolve();
    for (let i = 0; i < 5; i++) await turn();
    expect(got).toEqual([{ n: 1 }]);
    expect(trace).toEqual(["finally"]);
    expect(terminalOf(events, result.executionId).data).toMatchObject({ code: "TIMEOUT", events: 1, effectStatus: "unknown" });
  });

  it("SI-12: the whole-stream bound (timeoutMs) ends a stream that never idles long", async () => {
    let yielded = 0;
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low", timeoutMs: 60, stream: { idleTimeoutMs: 10_000 } }) })
      .handler(async function* () {
        for (let n = 1; ; n++) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          yielded++;
          yield { n };
        }
      });
    const { runtime, events } = build({ defs: { feed } });
    let delivered = 0;
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onEvent: () => void delivered++ });
    expect(codeOf(result)).toBe("TIMEOUT");
    const count = delivered;
    for (let i = 0; i < 10; i++) await turn();
    expect(delivered).toBe(count);
    // Returned: it yields at most the one it was working on when the bound passed.
    expect(yielded).toBeLessThanOrEqual(count + 1);
    expect(terminalOf(events, result.executionId).data).toMatchObject({ code: "TIMEOUT", events: count });
  });

  it("SI-12: an endless stream fails at maxEvents: exactly that many delivered, the iterator returned", async () => {
    const trace: string[] = [];
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low", stream: { maxEvents: 5 } }) })
      .handler(async function* () {
        try {
          for (let n = 1; ; n++) yield { n };
        } finally {
          trace.push("finally");
        }
      });
    const { runtime, events } = build({ defs: { feed } });
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onEvent: (e) => void got.push(e) });
    expect(result.status).toBe("failed");
    expect(codeOf(result)).toBe("EXECUTION_FAILED");
    expect(got).toHaveLength(5);
    await turn();
    expect(trace).toEqual(["finally"]);
    expect(terminalOf(events, result.executionId).data).toMatchObject({ events: 5 });
  });

  it("SI-12: the runtime default maxEvents bounds a stream without its own, even with no onEvent", async () => {
    let yielded = 0;
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low" }) })
      .handler(async function* () {
        for (;;) yield { n: ++yielded };
      });
    const { runtime } = build({ defs: { feed }, defaults: { streamMaxEvents: 50 } });
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {} });
    expect(codeOf(result)).toBe("EXECUTION_FAILED");
    expect(yielded).toBe(51);
  });
});

describe("SI-12: a slow consumer keeps memory bounded", () => {
  it("SI-12: the handler is never pulled ahead of the consumer", async () => {
    let produced = 0;
    let maxAhead = 0;
    let consumed = 0;
    const feed = base
      .output(tick)
      .meta({ agent: meta({ sideEffect: "read", risk: "low", timeoutMs: 20_000 }) })
      .handler(async function* () {
        for (let n = 1; n <= 200; n++) {
          produced++;
          maxAhead = Math.max(maxAhead, produced - consumed);
          yield { n };
        }
      });
    const { runtime } = build({ defs: { feed } });
    const result = await runtime.invoke("feed", {}, {
      actor: dana,
      context: {},
      onEvent: async () => {
        // A slow consumer: several macrotasks per event, during which an eager producer would race ahead.
        for (let i = 0; i < 3; i++) await turn();
        consumed++;
      },
    });
    expect(result).toMatchObject({ status: "completed", output: { n: 200 }, eventCount: 200 });
    // At most the one event being handed over is produced ahead of what was consumed.
    expect(maxAhead).toBeLessThanOrEqual(1);
  });
});
