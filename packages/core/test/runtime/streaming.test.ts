// Streaming capabilities (amended docs/architecture/spec/core.md#core-2-1, issue 46): an oRPC procedure whose output is an event iterator,
// governed end to end by the runtime. The attacks are in tests/adversarial/si-12-stream-bounds.test.ts and
// si-10-stream-redaction.test.ts; these are the ordinary behaviours.
import { eventIterator, os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  allow,
  type AgentAuditEvent,
  type AgentMeta,
  type CapabilityDefs,
  type ExecutionResult,
} from "../../src/index.js";
import { dana, priya } from "./execution-harness.js";

const base = agentProcedure(os);
const tick = eventIterator(z.object({ n: z.number() }));

function meta(extra: Partial<AgentMeta> = {}): AgentMeta {
  return { description: "A streaming capability.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low", ...extra };
}

/** One log for audit events and deliveries, so their order can be asserted. */
function build(defs: CapabilityDefs, options: Partial<Parameters<typeof createAgentRuntime>[0]> = {}) {
  const log: (AgentAuditEvent | { type: "delivered"; event: unknown })[] = [];
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry(defs) }), audit: (e) => void log.push(e), ...options });
  const onEvent = (event: unknown) => void log.push({ type: "delivered", event });
  return { runtime, log, onEvent };
}

function count(upTo: number, extra: Partial<AgentMeta> = {}) {
  return base
    .output(tick)
    .meta(agentMeta(meta(extra)))
    .handler(async function* () {
      for (let n = 1; n <= upTo; n++) yield { n };
    });
}

const codeOf = (result: ExecutionResult) => (result.status === "failed" || result.status === "cancelled" ? result.error.code : undefined);

describe("streaming capabilities: registry and describe", () => {
  it("the descriptor says streaming: true only for a streaming capability", async () => {
    const plain = base.meta(agentMeta(meta())).handler(() => "ok");
    const { runtime } = build({ feed: count(1), plain });
    const descriptors = await runtime.describe("direct", { actor: dana, context: {} });
    expect(descriptors.find((d) => d.id === "feed")?.streaming).toBe(true);
    expect("streaming" in descriptors.find((d) => d.id === "plain")!).toBe(false);
  });

  it("meta.stream is kept, normalized and frozen on the capability", () => {
    const registry = createCapabilityRegistry({ feed: count(1, { stream: { idleTimeoutMs: 500, maxEvents: 3 } }) });
    const stream = registry.get("feed")!.meta.stream!;
    expect(stream).toEqual({ idleTimeoutMs: 500, maxEvents: 3 });
    expect(Object.isFrozen(stream)).toBe(true);
  });

  it("runtime stream defaults are validated like the others", () => {
    const governance = defineGovernance({ registry: createCapabilityRegistry({ feed: count(1) }) });
    expect(() => createAgentRuntime({ governance, defaults: { streamMaxEvents: 1.5 } })).toThrow(/streamMaxEvents must be a positive integer/);
    expect(() => createAgentRuntime({ governance, defaults: { streamIdleTimeoutMs: 0 } })).toThrow(/streamIdleTimeoutMs must be a finite number > 0/);
    expect(() => createAgentRuntime({ governance, defaults: { progressIntervalMs: Number.NaN } })).toThrow(/progressIntervalMs/);
  });
});

describe("streaming capabilities: invoke", () => {
  it("completes with the last redacted event and the event count, after delivering each event in order", async () => {
    const { runtime, log, onEvent } = build({ feed: count(3) });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {}, onEvent });
    expect(result).toEqual({ status: "completed", executionId: result.executionId, output: { n: 3 }, eventCount: 3 });
    // Stages 1–10 end before the first event; the terminal event follows the last and counts them.
    expect(log.map((e) => e.type)).toEqual(["capability.requested", "capability.started", "delivered", "delivered", "delivered", "capability.completed"]);
    expect(log.filter((e) => e.type === "delivered").map((e) => (e as { event: unknown }).event)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(log.at(-1)).toMatchObject({ type: "capability.completed", data: { events: 3, attempts: 1 } });
  });

  it("a stream with no events completes with output undefined and eventCount 0", async () => {
    const { runtime, log } = build({ feed: count(0) });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: undefined, eventCount: 0 });
    expect(log.at(-1)).toMatchObject({ type: "capability.completed", data: { events: 0 } });
  });

  it("the generator's return value is not an event and is never returned", async () => {
    const feed = base
      .output(eventIterator(z.object({ n: z.number() }), z.string()))
      .meta(agentMeta(meta()))
      .handler(async function* () {
        yield { n: 1 };
        return "summary";
      });
    const { runtime } = build({ feed });
    expect(await runtime.invoke("feed", undefined, { actor: dana, context: {} })).toMatchObject({ output: { n: 1 }, eventCount: 1 });
  });

  it("an execution policy runs before the first event", async () => {
    const order: string[] = [];
    const policy = definePolicy("watch", () => (order.push("policy"), allow()), { phases: ["execution"] });
    const feed = base
      .output(tick)
      .meta(agentMeta(meta({ policies: [policy] })))
      .handler(async function* () {
        order.push("handler");
        yield { n: 1 };
      });
    const { runtime } = build({ feed });
    await runtime.invoke("feed", undefined, { actor: dana, context: {}, onEvent: () => void order.push("event") });
    expect(order).toEqual(["policy", "handler", "event"]);
  });

  it("an event that fails the eventIterator schema fails the stream as OUTPUT_INVALID, withheld", async () => {
    const feed = base
      .output(tick)
      .meta(agentMeta(meta()))
      .handler(async function* () {
        yield { n: 1 };
        yield { n: "two" } as never;
      });
    const { runtime, log, onEvent } = build({ feed });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {}, onEvent });
    expect(codeOf(result)).toBe("OUTPUT_INVALID");
    expect(log.filter((e) => e.type === "delivered")).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({ type: "capability.failed", data: { code: "OUTPUT_INVALID", executedBeforeFailure: true, events: 1 } });
  });

  it("a handler error after some events fails the stream with the count; a write-like one ends with effectStatus unknown", async () => {
    const feed = base
      .output(tick)
      .meta(agentMeta(meta({ sideEffect: "write", risk: "medium" })))
      .handler(async function* () {
        yield { n: 1 };
        throw new Error("disk full");
      });
    const { runtime, log } = build({ feed });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "failed", effectStatus: "unknown" });
    expect(codeOf(result)).toBe("EXECUTION_FAILED");
    expect(log.at(-1)).toMatchObject({ type: "capability.failed", data: { events: 1, effectStatus: "unknown" } });
  });

  it("a consumer that throws ends the stream as cancelled and the handler's iterator is returned", async () => {
    const trace: string[] = [];
    const feed = base
      .output(tick)
      .meta(agentMeta(meta()))
      .handler(async function* () {
        try {
          for (let n = 1; ; n++) yield { n };
        } finally {
          trace.push("finally");
        }
      });
    const { runtime, log } = build({ feed });
    let seen = 0;
    const result = await runtime.invoke("feed", undefined, {
      actor: dana,
      context: {},
      onEvent: async () => {
        if (++seen === 2) throw new Error("client went away");
      },
    });
    expect(codeOf(result)).toBe("CANCELLED");
    expect(seen).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(trace).toEqual(["finally"]);
    expect(log.at(-1)).toMatchObject({ type: "capability.cancelled", data: { events: 2 } });
  });

  it("an abort while a middleware still works means the handler's iterator, returned later, never starts", async () => {
    let started = false;
    const controller = new AbortController();
    const feed = base
      .use(async ({ next }) => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 5));
        return next();
      })
      .output(tick)
      .meta(agentMeta(meta()))
      .handler(async function* () {
        started = true;
        yield { n: 1 };
      });
    const { runtime, log, onEvent } = build({ feed });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {}, signal: controller.signal, onEvent });
    expect(codeOf(result)).toBe("CANCELLED");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBe(false);
    expect(log.filter((e) => e.type === "delivered")).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: "capability.cancelled", data: { events: 0 } });
  });

  it("a handler that returns something other than an iterator fails as OUTPUT_INVALID", async () => {
    const feed = base
      .output(tick)
      .meta(agentMeta(meta()))
      .handler(() => ({ n: 1 }) as never);
    const { runtime } = build({ feed });
    expect(codeOf(await runtime.invoke("feed", undefined, { actor: dana, context: {} }))).toBe("OUTPUT_INVALID");
  });

  it("onEvent is ignored for a capability that does not stream; its result has no eventCount", async () => {
    const plain = base.meta(agentMeta(meta())).handler(() => ({ ok: true }));
    const { runtime } = build({ plain });
    const events: unknown[] = [];
    const result = await runtime.invoke("plain", undefined, { actor: dana, context: {}, onEvent: (e) => void events.push(e) });
    expect(result).toEqual({ status: "completed", executionId: result.executionId, output: { ok: true } });
    expect(events).toEqual([]);
  });

  it("onEvent and onProgress must be functions when given", async () => {
    const { runtime } = build({ feed: count(1) });
    await expect(runtime.invoke("feed", undefined, { actor: dana, context: {}, onEvent: "yes" as never })).rejects.toThrow(TypeError);
    await expect(runtime.invoke("feed", undefined, { actor: dana, context: {}, onProgress: {} as never })).rejects.toThrow(TypeError);
    await expect(runtime.resume("apr_x", { context: {}, onEvent: 1 as never })).rejects.toThrow(TypeError);
  });
});

describe("streaming capabilities: retries (SI-11) only before the first event", () => {
  const retryable = () => new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });

  it("a failure before the first event is retried, and the retry streams", async () => {
    let attempt = 0;
    const feed = base
      .output(tick)
      .meta(agentMeta(meta({ retry: { maxAttempts: 2, backoffMs: 1 } })))
      .handler(async function* () {
        attempt++;
        if (attempt === 1) throw retryable();
        yield { n: attempt };
      });
    const { runtime, log } = build({ feed });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { n: 2 }, eventCount: 1 });
    expect(log.map((e) => e.type)).toEqual(["capability.requested", "capability.started", "capability.retried", "capability.completed"]);
    expect(log.at(-1)).toMatchObject({ data: { attempts: 2, events: 1 } });
  });

  it("a failure after the first event is never retried, whatever retry allows", async () => {
    let attempt = 0;
    const feed = base
      .output(tick)
      .meta(agentMeta(meta({ retry: { maxAttempts: 3, backoffMs: 1 } })))
      .handler(async function* () {
        attempt++;
        yield { n: 1 };
        throw retryable();
      });
    const { runtime, log } = build({ feed });
    const result = await runtime.invoke("feed", undefined, { actor: dana, context: {} });
    expect(result.status).toBe("failed");
    expect(attempt).toBe(1);
    expect(log.some((e) => e.type === "capability.retried")).toBe(false);
    expect(log.at(-1)).toMatchObject({ type: "capability.failed", data: { attempts: 1, events: 1 } });
  });

  it("an idle timeout before the first event of a read is retried (TIMEOUT is retryable)", async () => {
    let attempt = 0;
    const feed = base
      .output(tick)
      .meta(agentMeta(meta({ retry: { maxAttempts: 1, backoffMs: 1 }, stream: { idleTimeoutMs: 20 } })))
      .handler(async function* ({ signal }) {
        attempt++;
        if (attempt === 1) await new Promise((resolve) => signal?.addEventListener("abort", resolve));
        yield { n: attempt };
      });
    const { runtime } = build({ feed });
    expect(await runtime.invoke("feed", undefined, { actor: dana, context: {} })).toMatchObject({ status: "completed", output: { n: 2 } });
  });
});

describe("streaming capabilities: resume", () => {
  it("an approved streaming capability streams on resume, to resume's onEvent", async () => {
    const feed = base
      .input(z.object({ account: z.string() }))
      .output(tick)
      .meta(agentMeta(meta({ sideEffect: "write", risk: "high", approval: { required: true } })))
      .handler(async function* () {
        yield { n: 1 };
        yield { n: 2 };
      });
    const { runtime, log, onEvent } = build({ feed }, { approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    const first = await runtime.invoke("feed", { account: "a-1" }, { actor: dana, context: {}, onEvent });
    expect(first).toMatchObject({ status: "approval-required" });
    expect(log.some((e) => e.type === "delivered")).toBe(false);
    const approvalId = first.status === "approval-required" ? first.approval.id : "";
    await runtime.approvals.decide(approvalId, { status: "approved", approver: priya });
    const result = await runtime.resume(approvalId, { context: {}, onEvent });
    expect(result).toMatchObject({ status: "completed", output: { n: 2 }, eventCount: 2 });
    expect(log.filter((e) => e.type === "delivered")).toHaveLength(2);
  });
});
