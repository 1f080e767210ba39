// SI-12 for streaming capabilities (issue 46), attacks that held (kept as regressions): a consumer whose onEvent never
// settles, and handlers whose iterator is hostile (a step that is not an object, a `done` getter that throws, a
// return() that throws or never settles, an [Symbol.asyncIterator] getter that throws). Each call ends once, within
// its bounds, with one terminal event, and nothing rejects unhandled.
import { eventIterator } from "@orpc/server";
import type { AgentAuditEvent } from "@orpc-agent/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta } from "./support/runtime.js";

const TERMINAL = new Set(["capability.completed", "capability.failed", "capability.cancelled"]);
const terminalOf = (events: readonly AgentAuditEvent[], executionId: string) => events.filter((e) => e.executionId === executionId && TERMINAL.has(e.type));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => void process.off("unhandledRejection", onUnhandled));

/** A handler returning `output` as its stream (the schema accepts any event). */
function hostile(output: () => unknown, bounds: { timeoutMs?: number; maxEvents?: number } = {}) {
  return base
    .output(eventIterator(z.any()))
    .meta({
      agent: meta({ sideEffect: "read", risk: "low", timeoutMs: bounds.timeoutMs ?? 5_000, stream: { idleTimeoutMs: 5_000, ...(bounds.maxEvents !== undefined && { maxEvents: bounds.maxEvents }) } }),
    })
    .handler(output as never);
}

/** A hand-written iterator: `next` as given, `return` as given. */
function iterator(next: () => unknown, ret?: () => unknown) {
  const it: Record<PropertyKey, unknown> = { next };
  it[Symbol.asyncIterator] = function () {
    return this;
  };
  if (ret !== undefined) it.return = ret;
  return it;
}

describe("SI-12: a consumer that never takes an event", () => {
  it("SI-12: is cut off by timeoutMs; the handler's iterator is returned", async () => {
    const trace: string[] = [];
    const feed = base
      .output(eventIterator(z.object({ n: z.number() })))
      .meta({ agent: meta({ sideEffect: "read", risk: "low", timeoutMs: 50 }) })
      .handler(async function* () {
        try {
          yield { n: 1 };
          yield { n: 2 };
        } finally {
          trace.push("finally");
        }
      });
    const { runtime, events } = build({ defs: { feed } });
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onEvent: () => new Promise<void>(() => {}) });
    expect(result).toMatchObject({ status: "cancelled", error: { code: "TIMEOUT" } });
    for (let i = 0; i < 5; i++) await turn();
    expect(trace).toEqual(["finally"]);
    expect(terminalOf(events, result.executionId)).toMatchObject([{ type: "capability.cancelled", data: { events: 1 } }]);
  });
});

describe("SI-12: hostile iterators end the call once", () => {
  it.each([
    ["a step that is null", () => iterator(async () => null)],
    ["a done getter that throws", () => iterator(async () => ({ get done(): boolean { throw new Error("done"); } }))],
    ["an asyncIterator getter that throws", () => ({ get [Symbol.asyncIterator](): never { throw new Error("getter"); }, next: async () => ({ done: true }) })],
  ])("SI-12: %s fails the call as EXECUTION_FAILED, nothing delivered", async (_label, output) => {
    const { runtime, events } = build({ defs: { feed: hostile(output) } });
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onEvent: (e) => void got.push(e) });
    expect(result).toMatchObject({ status: "failed", error: { code: "EXECUTION_FAILED" } });
    expect(got).toEqual([]);
    expect(terminalOf(events, result.executionId)).toHaveLength(1);
    for (let i = 0; i < 5; i++) await turn();
    expect(unhandled).toEqual([]);
  });

  it.each([
    ["throws", () => { throw new Error("return"); }],
    ["never settles", () => new Promise(() => {})],
  ])("SI-12: an endless iterator whose return() %s ends at maxEvents", async (_label, ret) => {
    let n = 0;
    const { runtime, events } = build({ defs: { feed: hostile(() => iterator(async () => ({ done: false, value: { n: ++n } }), ret), { maxEvents: 5 }) } });
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onEvent: (e) => void got.push(e) });
    expect(result).toMatchObject({ status: "failed", error: { code: "EXECUTION_FAILED" } });
    expect(got).toHaveLength(5);
    expect(terminalOf(events, result.executionId)).toMatchObject([{ type: "capability.failed", data: { events: 5 } }]);
    for (let i = 0; i < 5; i++) await turn();
    expect(unhandled).toEqual([]);
  });
});
