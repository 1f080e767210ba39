// Raised from the mutation run: stage 10–11 resources and timing (docs/architecture/spec/core.md#core-6-1, docs/architecture/spec/core.md#core-16): an attempt releases its timer
// and its caller-signal listener, ends its span once, re-checks the caller signal, and backs off exactly
// backoffMs × 2^(n−1).
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentMeta, CapabilityError, type AgentAuditEvent } from "../../../src/index.js";
import { deferred, flush, recordingTracer } from "../../runtime/execution-harness.js";
import { base, build, dana, meta } from "../../runtime/pipeline-harness.js";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Browser- and worker-style timers: setTimeout returns a number, which has no unref. */
function numericTimers() {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  vi.stubGlobal("setTimeout", (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const id = next++;
    live.set(id, realSet(() => (live.delete(id), fn(...args)), ms));
    return id;
  });
  vi.stubGlobal("clearTimeout", (id: number | undefined) => {
    if (id === undefined) return;
    realClear(live.get(id));
    live.delete(id);
  });
}

const retryable = () => new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });

describe("stage 11 attempt resources (core.md §16)", () => {
  it("leaves no timer and no caller-signal listener behind once the attempt settles", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const controller = new AbortController();
    const { runtime } = build({ defs: { quick: base.meta(agentMeta(meta())).handler(() => "done") } });
    const result = await runtime.invoke("quick", undefined, { actor: dana, context: {}, signal: controller.signal });
    expect(result).toMatchObject({ status: "completed", output: "done" });
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("runs where setTimeout returns a plain number (no unref), and its timeout still fires", async () => {
    numericTimers();
    const { runtime } = build({
      defs: {
        quick: base.meta(agentMeta(meta())).handler(() => "done"),
        stuck: base.meta(agentMeta(meta({ timeoutMs: 5 }))).handler(() => new Promise<never>(() => {})),
      },
    });
    expect(await runtime.invoke("quick", undefined, { actor: dana, context: {} })).toMatchObject({ status: "completed", output: "done" });
    const stuck = await runtime.invoke("stuck", undefined, { actor: dana, context: {} });
    expect(stuck.status === "cancelled" && stuck.error.code).toBe("TIMEOUT");
  });

  it("SI-12: ends an attempt's span once, though the procedure settles after its timeout", async () => {
    const late = deferred<string>();
    const tracer = recordingTracer();
    const { runtime } = build({ defs: { slow: base.meta(agentMeta(meta({ timeoutMs: 10 }))).handler(() => late.promise) }, tracing: tracer.adapter });
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
    late.resolve("too late");
    await flush();
    const attempts = tracer.named("agent.procedure_execution");
    expect(attempts.map((s) => [s.endCount, s.status])).toEqual([[1, "error"]]);
  });

  it("SI-12: a caller abort while strict audit writes capability.started still stops the procedure", async () => {
    const controller = new AbortController();
    let calls = 0;
    const sink = async (event: AgentAuditEvent) => {
      if (event.type === "capability.started") controller.abort();
    };
    const { runtime } = build({
      defs: { pay: base.meta(agentMeta(meta())).handler(() => (calls++, "paid")) },
      audit: { sinks: [sink], strict: true },
    });
    const result = await runtime.invoke("pay", undefined, { actor: dana, context: {}, signal: controller.signal });
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect(calls).toBe(0);
  });

  it("SI-12: a caller abort during backoff starts no further attempt, not even an empty one", async () => {
    const controller = new AbortController();
    const tracer = recordingTracer();
    const { runtime } = build({
      defs: {
        flaky: base.meta(agentMeta(meta({ retry: { maxAttempts: 3, backoffMs: 60_000 } }))).handler(() => {
          throw retryable();
        }),
      },
      tracing: tracer.adapter,
      audit: (event: AgentAuditEvent) => {
        if (event.type === "capability.retried") setTimeout(() => controller.abort(), 1);
      },
    });
    const result = await runtime.invoke("flaky", undefined, { actor: dana, context: {}, signal: controller.signal });
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect(tracer.named("agent.procedure_execution")).toHaveLength(1);
    expect(tracer.named("agent.capability_call")[0]!.attributes["orpc_agent.attempt"]).toBe(1);
  });
});

describe("stage 11 backoff (SI-11 retry mechanics)", () => {
  async function callsAt(backoff: { maxAttempts: number; backoffMs?: number }, steps: number[]) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let calls = 0;
    const { runtime } = build({
      defs: {
        flaky: base.meta(agentMeta(meta({ retry: backoff }))).handler(() => {
          calls++;
          if (calls <= backoff.maxAttempts) throw retryable();
          return "ok";
        }),
      },
    });
    const pending = runtime.invoke("flaky", undefined, { actor: dana, context: {} });
    const seen: number[] = [];
    await vi.advanceTimersByTimeAsync(0);
    seen.push(calls);
    for (const ms of steps) {
      await vi.advanceTimersByTimeAsync(ms);
      seen.push(calls);
    }
    await expect(pending).resolves.toMatchObject({ status: "completed", output: "ok" });
    return seen;
  }

  it("waits backoffMs before the first retry and doubles it before the next", async () => {
    // Attempt 1 at 0 ms, attempt 2 at 10 ms, attempt 3 at 10 + 20 = 30 ms.
    expect(await callsAt({ maxAttempts: 2, backoffMs: 10 }, [9, 1, 19, 1])).toEqual([1, 1, 2, 2, 3]);
  });

  it("waits 250 ms when the retry config gives no backoffMs", async () => {
    expect(await callsAt({ maxAttempts: 1 }, [249, 1])).toEqual([1, 1, 2]);
  });
});
