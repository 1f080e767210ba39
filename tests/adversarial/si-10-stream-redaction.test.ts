// SI-10 and SI-7 for streaming capabilities (issue 46): redaction applies to every event before it leaves the
// runtime, and an event that fails redaction fails the stream closed. The attacks: a secret in every event, an event
// whose redaction throws (with and without a consumer), and a redaction hook that throws only for a late event.
import { eventIterator } from "@orpc/server";
import type { ExecutionResult } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta } from "./support/runtime.js";

const SECRET = "sk_live_SENTINEL_4242";

const row = eventIterator(z.object({ n: z.number(), card: z.string() }));

/** Redacts `card`; throws on the event numbered `failAt`. */
function redactor(failAt: number | undefined) {
  return (event: unknown) => {
    const { n } = event as { n: number; card: string };
    if (n === failAt) throw new Error(`cannot redact ${SECRET}`);
    return { n, card: "****" };
  };
}

function app(failAt?: number) {
  const trace: string[] = [];
  const rows = base
    .output(row)
    .meta({ agent: meta({ sideEffect: "read", risk: "low", redact: { output: redactor(failAt) } }) })
    .handler(async function* () {
      try {
        for (let n = 1; n <= 5; n++) yield { n, card: SECRET };
      } finally {
        trace.push("finally");
      }
    });
  const { runtime, events } = build({ defs: { rows } });
  return { runtime, events, trace };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function everything(result: ExecutionResult, delivered: unknown[], events: unknown[]) {
  const { executionId: _id, ...rest } = result as ExecutionResult & { error?: unknown };
  const error = (result as { error?: { code: string; publicMessage: string; details?: unknown } }).error;
  return JSON.stringify({ rest, error: error && { code: error.code, message: error.publicMessage, details: error.details }, delivered, events });
}

describe("SI-10: every event is redacted before it leaves", () => {
  it("SI-10: the consumer and the result see only redacted events; the audit holds no event payload", async () => {
    const { runtime, events } = app();
    const delivered: unknown[] = [];
    const result = await runtime.invoke("rows", {}, { actor: dana, context: {}, onEvent: (e) => void delivered.push(e) });
    expect(result).toMatchObject({ status: "completed", output: { n: 5, card: "****" }, eventCount: 5 });
    expect(delivered).toEqual([1, 2, 3, 4, 5].map((n) => ({ n, card: "****" })));
    expect(everything(result, delivered, events)).not.toContain(SECRET);
  });

  it("SI-10: without onEvent the events are still redacted; only the last, redacted, is returned", async () => {
    const { runtime, events } = app();
    const result = await runtime.invoke("rows", {}, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { n: 5, card: "****" }, eventCount: 5 });
    expect(everything(result, [], events)).not.toContain(SECRET);
  });
});

describe("SI-7: an event that fails redaction fails the stream closed", () => {
  it("SI-7: the failing event and every later one stay in; the ones before were redacted and delivered; the iterator is returned", async () => {
    const { runtime, events, trace } = app(3);
    const delivered: unknown[] = [];
    const result = await runtime.invoke("rows", {}, { actor: dana, context: {}, onEvent: (e) => void delivered.push(e) });
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(result.status === "failed" && result.error.exposeToModel).toBe(false);
    expect(delivered).toEqual([
      { n: 1, card: "****" },
      { n: 2, card: "****" },
    ]);
    await turn();
    expect(trace).toEqual(["finally"]);
    const terminal = events.filter((e) => e.type === "capability.failed");
    expect(terminal).toHaveLength(1);
    expect(terminal[0]!.data).toMatchObject({ code: "EXECUTION_FAILED", executedBeforeFailure: true, events: 2 });
    expect(everything(result, delivered, events)).not.toContain(SECRET);
  });

  it("SI-7: a redaction failure on the first event delivers nothing and returns no output, with or without a consumer", async () => {
    for (const withConsumer of [true, false]) {
      const { runtime, events } = app(1);
      const delivered: unknown[] = [];
      const options = withConsumer ? { onEvent: (e: unknown) => void delivered.push(e) } : {};
      const result = await runtime.invoke("rows", {}, { actor: dana, context: {}, ...options });
      expect(result.status).toBe("failed");
      expect("output" in result).toBe(false);
      expect(delivered).toEqual([]);
      expect(everything(result, delivered, events)).not.toContain(SECRET);
    }
  });

  it("SI-7: a failure on the last event withholds it: the caller never gets an unredacted final value", async () => {
    const { runtime, events } = app(5);
    const delivered: unknown[] = [];
    const result = await runtime.invoke("rows", {}, { actor: dana, context: {}, onEvent: (e) => void delivered.push(e) });
    expect(result.status).toBe("failed");
    expect(delivered).toHaveLength(4);
    expect(everything(result, delivered, events)).not.toContain(SECRET);
  });
});
