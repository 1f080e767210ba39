import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type AgentMeta,
} from "../../src/index.js";
import { collectingSink, dana, deferred, flush } from "./execution-harness.js";

const base = agentProcedure(os);
const readMeta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({
  description: "A read.",
  expose: { direct: true },
  sideEffect: "read",
  risk: "low",
  ...extra,
});

/** A handler that never settles on its own: it rejects with the signal's reason once aborted. */
function hangingUntilAborted(onCall?: (signal: AbortSignal) => void) {
  return ({ signal }: { signal?: AbortSignal }) => {
    onCall?.(signal!);
    return new Promise<never>((_, reject) => signal!.addEventListener("abort", () => reject(signal!.reason)));
  };
}

function runtimeWith(procedures: Record<string, unknown>) {
  const audit = collectingSink();
  const registry = createCapabilityRegistry(procedures as never);
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: audit.sink });
  return { runtime, audit };
}

const terminalTypes = new Set(["capability.completed", "capability.failed", "capability.cancelled", "capability.denied"]);

describe("stage 10–11 bounded execution (SI-12)", () => {
  it("SI-12: a timeout ends cancelled/TIMEOUT and aborts the handler's signal with a TIMEOUT reason", async () => {
    const signals: AbortSignal[] = [];
    const { runtime, audit } = runtimeWith({
      slow: base.meta(agentMeta(readMeta({ timeoutMs: 15 }))).handler(hangingUntilAborted((s) => signals.push(s))),
    });
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status).toBe("cancelled");
    if (result.status !== "cancelled") return;
    expect(result.error).toBeInstanceOf(CapabilityError);
    expect(result.error).toMatchObject({ code: "TIMEOUT", stage: "timeout", retryable: true });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[0]!.reason).toBeInstanceOf(CapabilityError);
    expect((signals[0]!.reason as CapabilityError).code).toBe("TIMEOUT");
    expect(audit.ofType("capability.cancelled").map((e) => e.data.code)).toEqual(["TIMEOUT"]);
  });

  it("SI-12: runtime defaults.timeoutMs applies when the capability sets none", async () => {
    const audit = collectingSink();
    const registry = createCapabilityRegistry({ slow: base.meta(agentMeta(readMeta())).handler(hangingUntilAborted()) });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: audit.sink, defaults: { timeoutMs: 15 } });
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
  });

  it("SI-12: a caller abort mid-flight ends cancelled/CANCELLED and aborts the handler's signal", async () => {
    const started = deferred<AbortSignal>();
    const { runtime, audit } = runtimeWith({
      slow: base.meta(agentMeta(readMeta())).handler(hangingUntilAborted((s) => started.resolve(s))),
    });
    const controller = new AbortController();
    const pending = runtime.invoke("slow", undefined, { actor: dana, context: {}, signal: controller.signal });
    const handlerSignal = await started.promise;
    expect(handlerSignal.aborted).toBe(false);
    controller.abort(new Error("user closed the tab"));
    const result = await pending;
    expect(result.status).toBe("cancelled");
    expect(result.status === "cancelled" && result.error).toMatchObject({ code: "CANCELLED", stage: "cancellation", retryable: false });
    expect(handlerSignal.aborted).toBe(true);
    expect((handlerSignal.reason as CapabilityError).code).toBe("CANCELLED");
    expect(audit.ofType("capability.cancelled").map((e) => e.data.code)).toEqual(["CANCELLED"]);
  });

  it("SI-12: a pre-aborted signal never calls the procedure and emits no capability.started", async () => {
    let calls = 0;
    const { runtime, audit } = runtimeWith({
      quick: base.meta(agentMeta(readMeta())).handler(() => {
        calls++;
        return "ran";
      }),
    });
    const controller = new AbortController();
    controller.abort();
    const result = await runtime.invoke("quick", undefined, { actor: dana, context: {}, signal: controller.signal });
    expect(result.status).toBe("cancelled");
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect(calls).toBe(0);
    expect(audit.types()).toEqual(["capability.requested", "capability.cancelled"]);
  });

  it("SI-12: a late result after the caller aborts is ignored: one envelope and one terminal event", async () => {
    const release = deferred<string>();
    const started = deferred();
    const { runtime, audit } = runtimeWith({
      stubborn: base.meta(agentMeta(readMeta())).handler(() => {
        started.resolve();
        // Ignores its signal on purpose: the runtime must not wait for or consume this result.
        return release.promise;
      }),
    });
    const controller = new AbortController();
    const pending = runtime.invoke("stubborn", undefined, { actor: dana, context: {}, signal: controller.signal });
    await started.promise;
    controller.abort();
    const result = await pending;
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    release.resolve("late value");
    await flush();
    await flush();
    const terminal = audit.events.filter((e) => terminalTypes.has(e.type));
    expect(terminal.map((e) => e.type)).toEqual(["capability.cancelled"]);
    expect(JSON.stringify(audit.events)).not.toContain("late value");
  });

  it("SI-12: a handler that rejects after a timeout causes no unhandled rejection and no second terminal event", async () => {
    const release = deferred<never>();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { runtime, audit } = runtimeWith({
        stubborn: base.meta(agentMeta(readMeta({ timeoutMs: 10 }))).handler(() => release.promise),
      });
      const result = await runtime.invoke("stubborn", undefined, { actor: dana, context: {} });
      expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
      release.reject(new Error("late failure"));
      await flush();
      await flush();
      expect(unhandled).toEqual([]);
      expect(audit.events.filter((e) => terminalTypes.has(e.type)).map((e) => e.type)).toEqual(["capability.cancelled"]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("SI-12: each attempt gets a fresh timer of the full timeoutMs", async () => {
    const timeoutMs = 30;
    const waited: number[] = [];
    const { runtime, audit } = runtimeWith({
      slow: base.meta(agentMeta(readMeta({ timeoutMs, retry: { maxAttempts: 2, backoffMs: 1 } }))).handler(({ signal }) => {
        const t0 = performance.now();
        return new Promise<never>((_, reject) =>
          signal!.addEventListener("abort", () => {
            waited.push(performance.now() - t0);
            reject(signal!.reason);
          }),
        );
      }),
    });
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
    expect(waited).toHaveLength(3);
    // The timer is armed before the handler starts, so a loaded machine shortens what the handler sees by
    // several ms; a shared timer would give attempts 2 and 3 ~0 ms, far below half the timeout.
    for (const ms of waited) expect(ms).toBeGreaterThan(timeoutMs / 2);
    expect(audit.ofType("capability.retried").map((e) => e.data.previousErrorCode)).toEqual(["TIMEOUT", "TIMEOUT"]);
    expect(audit.ofType("capability.cancelled")).toHaveLength(1);
  });

  it("SI-12: a caller abort during backoff ends CANCELLED without another attempt", async () => {
    let calls = 0;
    const controller = new AbortController();
    const audit = collectingSink();
    const registry = createCapabilityRegistry({
      flaky: base.meta(agentMeta(readMeta({ retry: { maxAttempts: 3, backoffMs: 60_000 } }))).handler(() => {
        calls++;
        throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });
      }),
    });
    const runtime = createAgentRuntime({
      governance: defineGovernance({ registry }),
      audit: (event) => {
        audit.sink(event);
        // The backoff starts right after capability.retried; abort while it waits.
        if (event.type === "capability.retried") setTimeout(() => controller.abort(), 5);
      },
    });
    // A backoff the abort did not cut short would outlast the test's timeout (60 s against 5 s).
    const result = await runtime.invoke("flaky", undefined, { actor: dana, context: {}, signal: controller.signal });
    expect(result.status).toBe("cancelled");
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect(calls).toBe(1);
    expect(audit.types()).toEqual(["capability.requested", "capability.started", "capability.retried", "capability.cancelled"]);
  });

  it("SI-12: a caller abort after completion changes nothing", async () => {
    const { runtime, audit } = runtimeWith({ quick: base.meta(agentMeta(readMeta())).handler(() => "done") });
    const controller = new AbortController();
    const result = await runtime.invoke("quick", undefined, { actor: dana, context: {}, signal: controller.signal });
    controller.abort();
    await flush();
    expect(result).toMatchObject({ status: "completed", output: "done" });
    expect(audit.events.filter((e) => terminalTypes.has(e.type)).map((e) => e.type)).toEqual(["capability.completed"]);
  });
});
