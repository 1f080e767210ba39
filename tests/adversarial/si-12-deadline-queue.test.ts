// SI-12 through the shared deadline queue (packages/core/src/internal/deadline-queue.ts): stage-11 attempts of one
// duration share one unref'd timer and an intrusive list. The attacks aim at what sharing can get wrong: a removal
// that unlinks the wrong neighbour, a re-armed timer that fires early or never, an entry added while others expire,
// a failure in one expiry that starves the rest, and durations beyond what a timer holds. Each call must still end
// once, at its own deadline and never before, and leave nothing scheduled.
import { getEventListeners } from "node:events";
import {
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type AgentAuditEvent,
  type AuditConfig,
  type CapabilityDefs,
  type ExecutionResult,
  type TracingAdapter,
} from "@orpc-agent/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { base, build, dana, meta } from "./support/runtime.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Seen = { result?: ExecutionResult<unknown>; at?: number; settledCount: number };

/** Records the outcome and the monotonic instant it arrived (faked under fake timers); counts settlements. */
function watch(pending: Promise<ExecutionResult<unknown>>): Seen {
  const seen: Seen = { settledCount: 0 };
  void pending.then(
    (result) => {
      seen.settledCount++;
      seen.result = result;
      seen.at = performance.now();
    },
    () => {
      seen.settledCount++;
    },
  );
  return seen;
}

const codeOf = (seen: Seen) => (seen.result?.status === "cancelled" || seen.result?.status === "failed" ? seen.result.error.code : undefined);

const TERMINAL = new Set(["capability.completed", "capability.failed", "capability.cancelled", "capability.denied"]);

/** Exactly one terminal event for each of `ids`, and none for any other execution. */
function expectOneTerminalEach(events: readonly AgentAuditEvent[], ids: readonly string[]) {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (!TERMINAL.has(e.type)) continue;
    const id = e.executionId ?? "(none)";
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  expect([...counts.keys()].sort()).toEqual([...ids].sort());
  for (const id of ids) expect(counts.get(id)).toBe(1);
}

const idOf = (seen: Seen) => seen.result!.executionId;

/** Never settles on its own. */
const stuck = (timeoutMs: number) => base.meta({ agent: meta({ timeoutMs }) }).handler(() => new Promise<never>(() => {}));

function runtimeWith(defs: CapabilityDefs, audit: AuditConfig, tracing?: TracingAdapter) {
  const governance = defineGovernance({ registry: createCapabilityRegistry(defs) });
  return createAgentRuntime({ governance, audit, ...(tracing ? { tracing } : {}) });
}

const call = { actor: dana, context: {} };

describe("SI-12: interleaved calls of one duration on the shared timer", () => {
  it("SI-12: calls removed from the head, middle and tail each leave every other call timing out at exactly its own deadline", async () => {
    vi.useFakeTimers();
    const D = 100;
    const releases = new Map<number, (value: string) => void>();
    const parked = base.meta({ agent: meta({ timeoutMs: D }) }).handler(({ input }) => new Promise<string>((resolve) => releases.set(input as number, resolve)));
    const { runtime, events } = build({ defs: { parked } });
    // Call i starts at starts[i] (fake ms); two share a millisecond so two entries carry the same `due`.
    const starts = [0, 3, 10, 10, 17, 25, 40, 41, 75, 75, 76];
    // 0 is the head, 3 in the middle, 7 the tail when released; 8..10 are added after the tail left.
    const releaseAt = new Map([[0, 50], [3, 60], [7, 70]]);
    const origin = performance.now();
    const seen: Seen[] = [];
    let maxTimers = 0;
    for (let t = 0; t <= 300; t++) {
      starts.forEach((s, i) => {
        if (s === t) seen[i] = watch(runtime.invoke("parked", i, call));
      });
      for (const [i, at] of releaseAt) if (at === t) releases.get(i)!(`done-${i}`);
      await vi.advanceTimersByTimeAsync(1);
      maxTimers = Math.max(maxTimers, vi.getTimerCount());
    }
    starts.forEach((s, i) => {
      const released = releaseAt.get(i);
      if (released !== undefined) {
        expect(seen[i]!.result).toMatchObject({ status: "completed", output: `done-${i}` });
        // Released at fake ms `released`, before that millisecond's timers run.
        expect(seen[i]!.at! - origin).toBe(released);
      } else {
        expect(codeOf(seen[i]!), `call ${i}`).toBe("TIMEOUT");
        expect(seen[i]!.at! - origin, `call ${i} started at ${s}`).toBe(s + D);
      }
      expect(seen[i]!.settledCount).toBe(1);
    });
    expectOneTerminalEach(events, seen.map(idOf));
    expect(maxTimers).toBeLessThanOrEqual(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: 300 calls with seeded random starts, releases and caller aborts each end once, at exactly the instant they should", async () => {
    vi.useFakeTimers();
    const D = 99;
    // A small LCG: the same schedule every run, so a failure names a reproducible case.
    let seed = 12_345;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const releases = new Map<number, (value: string) => void>();
    const parked = base.meta({ agent: meta({ timeoutMs: D }) }).handler(({ input }) => new Promise<string>((resolve) => releases.set(input as number, resolve)));
    const { runtime, events } = build({ defs: { parked } });
    type Plan = { start: number; end: "release" | "abort" | "timeout"; at: number; controller: AbortController };
    const plans: Plan[] = [];
    for (let i = 0; i < 300; i++) {
      const start = rand(150);
      const kind = rand(3);
      const end = kind === 0 ? "release" : kind === 1 ? "abort" : "timeout";
      plans.push({ start, end, at: end === "timeout" ? start + D : start + 1 + rand(D - 1), controller: new AbortController() });
    }
    const origin = performance.now();
    const seen: Seen[] = [];
    for (let t = 0; t <= 150 + D + 2; t++) {
      plans.forEach((p, i) => {
        if (p.start === t) seen[i] = watch(runtime.invoke("parked", i, { ...call, signal: p.controller.signal }));
        if (p.at === t && p.end === "release") releases.get(i)!(`r${i}`);
        if (p.at === t && p.end === "abort") p.controller.abort();
      });
      await vi.advanceTimersByTimeAsync(1);
      expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
    }
    plans.forEach((p, i) => {
      const s = seen[i]!;
      expect(s.settledCount, `call ${i}`).toBe(1);
      expect(s.at! - origin, `call ${i} (${p.end}, start ${p.start})`).toBe(p.at);
      if (p.end === "release") expect(s.result).toMatchObject({ status: "completed", output: `r${i}` });
      else expect(codeOf(s), `call ${i}`).toBe(p.end === "abort" ? "CANCELLED" : "TIMEOUT");
    });
    expectOneTerminalEach(events, seen.map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: with real timers, many short calls settling and timing out at random never end early and each end once", async () => {
    const D = 30;
    const started: number[] = [];
    const releases: ((value: string) => void)[] = [];
    const parked = base.meta({ agent: meta({ timeoutMs: D }) }).handler(({ input }) => {
      started[input as number] = performance.now();
      return new Promise<string>((resolve) => (releases[input as number] = resolve));
    });
    const { runtime, events } = build({ defs: { parked } });
    const N = 24;
    const pending: Promise<ExecutionResult<unknown>>[] = [];
    const invokedAt: number[] = [];
    for (let i = 0; i < N; i++) {
      invokedAt[i] = performance.now();
      pending.push(runtime.invoke("parked", i, call));
      // Every third call settles well before its deadline; the rest must time out.
      if (i % 3 === 0) setTimeout(() => releases[i]?.("ok"), 5);
      await new Promise((resolve) => setTimeout(resolve, i % 4));
    }
    const ends: number[] = [];
    const results = await Promise.all(pending.map((p, i) => p.then((r) => ((ends[i] = performance.now()), r))));
    results.forEach((result, i) => {
      if (result.status === "cancelled") {
        expect(result.error.code).toBe("TIMEOUT");
        // Never before the full duration, measured from before the call was made.
        expect(ends[i]! - invokedAt[i]!).toBeGreaterThanOrEqual(D);
      } else {
        expect(i % 3).toBe(0);
        expect(result).toMatchObject({ status: "completed", output: "ok" });
      }
    });
    expect(results.filter((r) => r.status === "cancelled").length).toBe(N - Math.ceil(N / 3));
    expectOneTerminalEach(events, results.map((r) => r.executionId));
  });

  it("SI-12: a timer that Node fires early after a long synchronous stretch (stale loop time) re-arms rather than ending the call early", async () => {
    const D = 40;
    const { runtime } = build({ defs: { stuck: stuck(D) } });
    // Burn the loop's cached time: Node starts the timer from it, so the timer falls due early on the real clock.
    const spinUntil = performance.now() + 30;
    while (performance.now() < spinUntil) {
      // spin
    }
    const t0 = performance.now();
    const result = await runtime.invoke("stuck", undefined, call);
    const elapsed = performance.now() - t0;
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
    expect(elapsed).toBeGreaterThanOrEqual(D);
  });
});

describe("SI-12: races at the deadline's own tick", () => {
  it("SI-12: a handler settling in the same tick as its deadline, or in reaction to the abort, gives exactly one outcome", async () => {
    vi.useFakeTimers();
    const D = 101;
    const sameTick = base.meta({ agent: meta({ timeoutMs: D }) }).handler(() => new Promise<string>((resolve) => setTimeout(() => resolve("late"), D)));
    const onAbort = base.meta({ agent: meta({ timeoutMs: D }) }).handler(
      ({ signal }) => new Promise<string>((resolve, reject) => signal!.addEventListener("abort", () => (resolve("after the abort"), reject(new Error("too")))))
    );
    const { runtime, events } = build({ defs: { sameTick, onAbort } });
    const first = watch(runtime.invoke("sameTick", undefined, call));
    const second = watch(runtime.invoke("onAbort", undefined, call));
    await vi.advanceTimersByTimeAsync(50);
    // A second same-tick call that joins the queue late: its handler's timer predates the queue's re-armed one.
    const third = watch(runtime.invoke("sameTick", undefined, call));
    await vi.advanceTimersByTimeAsync(D - 50 - 1);
    expect([first.result, second.result, third.result]).toEqual([undefined, undefined, undefined]);
    await vi.advanceTimersByTimeAsync(1);
    // The deadline's timer was armed before the handler's own: the deadline wins, the late result is discarded.
    expect(codeOf(first)).toBe("TIMEOUT");
    expect(codeOf(second)).toBe("TIMEOUT");
    expect(third.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(50);
    // Either outcome is allowed at the exact tick; only one may ever be reported.
    expect(third.result?.status === "completed" || codeOf(third) === "TIMEOUT").toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    for (const s of [first, second, third]) expect(s.settledCount).toBe(1);
    expectOneTerminalEach(events, [first, second, third].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a caller abort in the deadline's own tick gives exactly one outcome and leaves no listener on the caller signal", async () => {
    vi.useFakeTimers();
    const D = 102;
    const { runtime, events } = build({ defs: { stuck: stuck(D) } });
    const before = new AbortController();
    const after = new AbortController();
    // Registered before the call: fires first in the deadline's tick.
    setTimeout(() => before.abort(), D);
    const abortedFirst = watch(runtime.invoke("stuck", undefined, { ...call, signal: before.signal }));
    const timedOutFirst = watch(runtime.invoke("stuck", undefined, { ...call, signal: after.signal }));
    // Registered after: the deadline fires first.
    setTimeout(() => after.abort(), D);
    await vi.advanceTimersByTimeAsync(D - 1);
    expect(getEventListeners(before.signal, "abort")).toHaveLength(1);
    expect(getEventListeners(after.signal, "abort")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(abortedFirst)).toBe("CANCELLED");
    expect(codeOf(timedOutFirst)).toBe("TIMEOUT");
    await vi.advanceTimersByTimeAsync(D);
    expect(abortedFirst.settledCount + timedOutFirst.settledCount).toBe(2);
    expect(getEventListeners(before.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(after.signal, "abort")).toHaveLength(0);
    expectOneTerminalEach(events, [abortedFirst, timedOutFirst].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a caller abort raised by the handler's own abort listener, while the deadline is being delivered, does not replace the TIMEOUT", async () => {
    vi.useFakeTimers();
    const D = 103;
    const caller = new AbortController();
    const reasons: unknown[] = [];
    // A handler that cancels the whole job when any step is aborted: it aborts the caller's controller it shares.
    const linked = base.meta({ agent: meta({ timeoutMs: D }) }).handler(({ signal }) => new Promise<never>(() => {
      signal!.addEventListener("abort", () => {
        reasons.push((signal!.reason as CapabilityError).code);
        caller.abort();
      });
    }));
    const { runtime, events } = build({ defs: { linked } });
    const seen = watch(runtime.invoke("linked", undefined, { ...call, signal: caller.signal }));
    await vi.advanceTimersByTimeAsync(D);
    // The deadline came first: the handler was told TIMEOUT, so the call must end TIMEOUT too.
    expect(reasons).toEqual(["TIMEOUT"]);
    expect(codeOf(seen)).toBe("TIMEOUT");
    const terminal = events.filter((e) => TERMINAL.has(e.type));
    expect(terminal.map((e) => [e.type, (e.data as { code?: string }).code])).toEqual([["capability.cancelled", "TIMEOUT"]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a call whose caller aborts while its strict started-write is pending is added and removed without a leaked timer", async () => {
    vi.useFakeTimers();
    const D = 104;
    let finishWrite: (() => void) | undefined;
    let holdNextWrite = false;
    const events: AgentAuditEvent[] = [];
    const sink = (e: AgentAuditEvent) => {
      events.push(e);
      if (e.type === "capability.started" && holdNextWrite) {
        holdNextWrite = false;
        return new Promise<void>((resolve) => (finishWrite = resolve));
      }
    };
    const runtime = runtimeWith({ stuck: stuck(D) }, { sinks: [sink], strict: true });
    const other = watch(runtime.invoke("stuck", undefined, call));
    await vi.advanceTimersByTimeAsync(0);
    const caller = new AbortController();
    holdNextWrite = true;
    const doomed = watch(runtime.invoke("stuck", undefined, { ...call, signal: caller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    expect(finishWrite).toBeDefined();
    caller.abort();
    finishWrite!();
    await vi.advanceTimersByTimeAsync(0);
    expect(codeOf(doomed)).toBe("CANCELLED");
    expect(other.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(D - 10 - 1);
    expect(other.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(other)).toBe("TIMEOUT");
    expectOneTerminalEach(events, [other, doomed].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("SI-12: retries on the shared queue", () => {
  it("SI-12: each attempt gets its own full timeout, and a settled attempt never takes another call's deadline with it", async () => {
    vi.useFakeTimers();
    const D = 105;
    const attemptStarts: number[] = [];
    const attemptAborts: number[] = [];
    const origin = performance.now();
    const flaky = base.meta({ agent: meta({ sideEffect: "read", timeoutMs: D, retry: { maxAttempts: 2, backoffMs: 10 } }) }).handler(({ signal }) => {
      attemptStarts.push(performance.now() - origin);
      signal!.addEventListener("abort", () => attemptAborts.push(performance.now() - origin));
      if (attemptStarts.length === 1) {
        return new Promise<never>((_, reject) => setTimeout(() => reject(new CapabilityError({ code: "EXECUTION_FAILED", retryable: true })), 30));
      }
      return new Promise<never>(() => {});
    });
    const { runtime, events } = build({ defs: { flaky, stuck: stuck(D) } });
    const retried = watch(runtime.invoke("flaky", undefined, call));
    await vi.advanceTimersByTimeAsync(20);
    // Queued right behind the first attempt: its removal at 30 must unlink only itself.
    const behind = watch(runtime.invoke("stuck", undefined, call));
    await vi.advanceTimersByTimeAsync(25);
    // Queued right behind the second attempt (added at 40).
    const later = watch(runtime.invoke("stuck", undefined, call));
    await vi.advanceTimersByTimeAsync(400);
    // Attempt 1 fails at 30, backoff 10 → attempt 2 at 40, TIMEOUT at 40 + D, backoff 20 → attempt 3, TIMEOUT at + D.
    const third = 40 + D + 20;
    expect(attemptStarts).toEqual([0, 40, third]);
    expect(attemptAborts).toEqual([40 + D, third + D]);
    expect(codeOf(retried)).toBe("TIMEOUT");
    expect(retried.at! - origin).toBe(third + D);
    expect(codeOf(behind)).toBe("TIMEOUT");
    expect(behind.at! - origin).toBe(20 + D);
    expect(codeOf(later)).toBe("TIMEOUT");
    expect(later.at! - origin).toBe(45 + D);
    expect(events.filter((e) => e.type === "capability.retried").map((e) => (e.data as { previousErrorCode: string }).previousErrorCode)).toEqual(["EXECUTION_FAILED", "TIMEOUT"]);
    expect(events.find((e) => e.type === "capability.cancelled" && e.executionId === idOf(retried))?.data).toMatchObject({ code: "TIMEOUT" });
    expectOneTerminalEach(events, [retried, behind, later].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a caller abort during the backoff ends the call once, with no attempt left on the queue", async () => {
    vi.useFakeTimers();
    const D = 106;
    let calls = 0;
    const failing = base.meta({ agent: meta({ sideEffect: "read", timeoutMs: D, retry: { maxAttempts: 3, backoffMs: 50 } }) }).handler(() => {
      calls++;
      throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });
    });
    const { runtime, events } = build({ defs: { failing, stuck: stuck(D) } });
    const caller = new AbortController();
    const seen = watch(runtime.invoke("failing", undefined, { ...call, signal: caller.signal }));
    const bystander = watch(runtime.invoke("stuck", undefined, call));
    await vi.advanceTimersByTimeAsync(20);
    caller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(codeOf(seen)).toBe("CANCELLED");
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(D - 20);
    expect(codeOf(bystander)).toBe("TIMEOUT");
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expectOneTerminalEach(events, [seen, bystander].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("SI-12: re-entrancy while the queue is expiring", () => {
  it("SI-12: a call started from an expiring handler's abort listener times out at its full duration, and the rest of the fire still expires", async () => {
    vi.useFakeTimers();
    const D = 107;
    const origin = performance.now();
    const spawned: Seen[] = [];
    let runtimeRef!: ReturnType<typeof build>["runtime"];
    const chain = base.meta({ agent: meta({ timeoutMs: D }) }).handler(({ input, signal }) => new Promise<never>(() => {
      // The first call, on its deadline, synchronously starts a new call of the same duration.
      if (input === "first") signal!.addEventListener("abort", () => spawned.push(watch(runtimeRef.invoke("chain", "spawned", call))));
    }));
    const built = build({ defs: { chain } });
    runtimeRef = built.runtime;
    const first = watch(runtimeRef.invoke("chain", "first", call));
    const sameDue = watch(runtimeRef.invoke("chain", "same", call));
    await vi.advanceTimersByTimeAsync(30);
    const later = watch(runtimeRef.invoke("chain", "later", call));
    await vi.advanceTimersByTimeAsync(D - 30);
    expect(codeOf(first)).toBe("TIMEOUT");
    expect(codeOf(sameDue)).toBe("TIMEOUT");
    expect(sameDue.at! - origin).toBe(D);
    expect(spawned).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(29);
    expect(later.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(later)).toBe("TIMEOUT");
    expect(later.at! - origin).toBe(30 + D);
    await vi.advanceTimersByTimeAsync(D - 30 - 1);
    expect(spawned[0]!.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(spawned[0]!)).toBe("TIMEOUT");
    expect(spawned[0]!.at! - origin).toBe(2 * D);
    expectOneTerminalEach(built.events, [first, sameDue, later, spawned[0]!].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a call started from the audit sink on a timeout (the queue just emptied) arms its own deadline at its full duration", async () => {
    vi.useFakeTimers();
    const D = 108;
    const origin = performance.now();
    const events: AgentAuditEvent[] = [];
    const spawned: Seen[] = [];
    let runtime!: ReturnType<typeof runtimeWith>;
    const sink = (e: AgentAuditEvent) => {
      events.push(e);
      // Each of the first three timeouts starts the next call synchronously, from inside the expiry.
      if (e.type === "capability.cancelled" && spawned.length < 3) spawned.push(watch(runtime.invoke("stuck", undefined, call)));
    };
    runtime = runtimeWith({ stuck: stuck(D) }, sink);
    const first = watch(runtime.invoke("stuck", undefined, call));
    for (let k = 1; k <= 4; k++) {
      await vi.advanceTimersByTimeAsync(D - 1);
      const latest = k === 1 ? first : spawned[k - 2]!;
      expect(latest.result, `call ${k} one ms early`).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(codeOf(latest)).toBe("TIMEOUT");
      expect(latest.at! - origin).toBe(k * D);
    }
    expect(spawned).toHaveLength(3);
    expectOneTerminalEach(events, [first, ...spawned].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: an expiry that cancels the next due call and starts one whose caller is already aborted leaves nothing scheduled", async () => {
    vi.useFakeTimers();
    const D = 109;
    const nextCaller = new AbortController();
    const deadCaller = new AbortController();
    deadCaller.abort();
    let runtimeRef!: ReturnType<typeof build>["runtime"];
    const spawned: Seen[] = [];
    const chain = base.meta({ agent: meta({ timeoutMs: D }) }).handler(({ input, signal }) => new Promise<never>(() => {
      if (input === "first") {
        signal!.addEventListener("abort", () => {
          nextCaller.abort();
          spawned.push(watch(runtimeRef.invoke("chain", "dead", { ...call, signal: deadCaller.signal })));
        });
      }
    }));
    const built = build({ defs: { chain } });
    runtimeRef = built.runtime;
    const first = watch(runtimeRef.invoke("chain", "first", call));
    const next = watch(runtimeRef.invoke("chain", "next", { ...call, signal: nextCaller.signal }));
    await vi.advanceTimersByTimeAsync(D);
    expect(codeOf(first)).toBe("TIMEOUT");
    // Cancelled by the first expiry before its own deadline was looked at: one outcome, CANCELLED.
    expect(codeOf(next)).toBe("CANCELLED");
    expect(codeOf(spawned[0]!)).toBe("CANCELLED");
    expectOneTerminalEach(built.events, [first, next, spawned[0]!].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("SI-12: two runtimes on the module-level queue", () => {
  it("SI-12: one runtime's settled, cancelled and timed-out calls never move another runtime's deadlines", async () => {
    vi.useFakeTimers();
    const D = 110;
    const origin = performance.now();
    const releases: ((v: string) => void)[] = [];
    const parked = () => base.meta({ agent: meta({ timeoutMs: D }) }).handler(() => new Promise<string>((resolve) => releases.push(resolve)));
    const one = build({ defs: { op: parked() } });
    const two = build({ defs: { op: parked() } });
    const abortTwo = new AbortController();
    const a0 = watch(one.runtime.invoke("op", undefined, call));
    await vi.advanceTimersByTimeAsync(5);
    const b5 = watch(two.runtime.invoke("op", undefined, { ...call, signal: abortTwo.signal }));
    await vi.advanceTimersByTimeAsync(5);
    const a10 = watch(one.runtime.invoke("op", undefined, call));
    await vi.advanceTimersByTimeAsync(5);
    const b15 = watch(two.runtime.invoke("op", undefined, call));
    await vi.advanceTimersByTimeAsync(5);
    releases[0]!("one-head");
    await vi.advanceTimersByTimeAsync(5);
    abortTwo.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(a0.result).toMatchObject({ status: "completed", output: "one-head" });
    expect(codeOf(b5)).toBe("CANCELLED");
    await vi.advanceTimersByTimeAsync(10 + D - 25 - 1);
    expect([a10.result, b15.result]).toEqual([undefined, undefined]);
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(a10)).toBe("TIMEOUT");
    expect(a10.at! - origin).toBe(10 + D);
    expect(b15.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(5);
    expect(codeOf(b15)).toBe("TIMEOUT");
    expect(b15.at! - origin).toBe(15 + D);
    expectOneTerminalEach(one.events, [a0, a10].map(idOf));
    expectOneTerminalEach(two.events, [b5, b15].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("SI-12: the monotonic clock against the timer clock", () => {
  it("SI-12: timers that fire before the monotonic deadline, again and again, never end the call early", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 5_000.25;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const D = 111;
    const { runtime, events } = build({ defs: { stuck: stuck(D) } });
    const seen = watch(runtime.invoke("stuck", undefined, call));
    await vi.advanceTimersByTimeAsync(0);
    // The monotonic clock stalls while the timer clock runs on: every fire must re-arm.
    await vi.advanceTimersByTimeAsync(D * 5);
    expect(seen.result).toBeUndefined();
    expect(vi.getTimerCount()).toBe(1);
    // Just short of the full duration on the monotonic clock.
    now = 5_000.25 + D - 0.01;
    await vi.advanceTimersByTimeAsync(10);
    expect(seen.result).toBeUndefined();
    // The full duration has passed (and the rounded-up due, too): the re-armed timer, at most D away, ends it.
    now = 5_000.25 + D + 1;
    await vi.advanceTimersByTimeAsync(D + 1);
    expect(codeOf(seen)).toBe("TIMEOUT");
    expect(seen.at!).toBeGreaterThanOrEqual(5_000.25 + D);
    expectOneTerminalEach(events, [idOf(seen)]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a monotonic jump (a suspended machine) expires every overdue call in one fire, and no later one", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 1_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const D = 112;
    const { runtime, events } = build({ defs: { stuck: stuck(D) } });
    const calls: Seen[] = [];
    for (const at of [1_000, 1_010.5, 1_020, 1_030]) {
      now = at;
      calls.push(watch(runtime.invoke("stuck", undefined, call)));
      await vi.advanceTimersByTimeAsync(0);
    }
    // The first timer fires with the clock past the first three deadlines but not the fourth (1_030 + D).
    now = 1_030 + D - 1;
    await vi.advanceTimersByTimeAsync(D);
    expect(calls.slice(0, 3).map(codeOf)).toEqual(["TIMEOUT", "TIMEOUT", "TIMEOUT"]);
    expect(calls[3]!.result).toBeUndefined();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5);
    expect(calls[3]!.result).toBeUndefined();
    now = 1_030 + D;
    await vi.advanceTimersByTimeAsync(5);
    expect(codeOf(calls[3]!)).toBe("TIMEOUT");
    expectOneTerminalEach(events, calls.map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a fractional start instant is rounded up, so the call never ends before start + timeoutMs", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 2_000.9;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const D = 113;
    const { runtime } = build({ defs: { stuck: stuck(D) } });
    const seen = watch(runtime.invoke("stuck", undefined, call));
    now = 2_000.9 + D - 0.05;
    await vi.advanceTimersByTimeAsync(D);
    expect(seen.result).toBeUndefined();
    now = 2_000.9 + D + 0.2;
    await vi.advanceTimersByTimeAsync(5);
    expect(codeOf(seen)).toBe("TIMEOUT");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("SI-12: failures during expiry", () => {
  it("SI-12: a throwing audit sink and a throwing onSinkError on every timeout starve no other call in the same fire", async () => {
    vi.useFakeTimers();
    const D = 114;
    const recorded: AgentAuditEvent[] = [];
    let sinkErrors = 0;
    const runtime = runtimeWith(
      { stuck: stuck(D) },
      {
        sinks: [
          (e) => {
            if (e.type === "capability.cancelled") throw new Error("sink down");
          },
          (e) => void recorded.push(e),
        ],
        onSinkError: () => {
          sinkErrors++;
          throw new Error("handler down too");
        },
      },
    );
    const sameFire = [0, 1, 2, 3].map(() => watch(runtime.invoke("stuck", undefined, call)));
    await vi.advanceTimersByTimeAsync(7);
    const afterwards = watch(runtime.invoke("stuck", undefined, call));
    await vi.advanceTimersByTimeAsync(D - 7);
    expect(sameFire.map(codeOf)).toEqual(["TIMEOUT", "TIMEOUT", "TIMEOUT", "TIMEOUT"]);
    expect(afterwards.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(7);
    expect(codeOf(afterwards)).toBe("TIMEOUT");
    expect(sinkErrors).toBe(5);
    expectOneTerminalEach(recorded, [...sameFire, afterwards].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: a tracing span that throws when an attempt ends on its deadline still leaves each call exactly one outcome", async () => {
    vi.useFakeTimers();
    const D = 115;
    // Errors the queue rethrows outside its loop are captured rather than failing the run as uncaught.
    const rethrown: unknown[] = [];
    const original = globalThis.queueMicrotask.bind(globalThis);
    vi.spyOn(globalThis, "queueMicrotask").mockImplementation((task) =>
      original(() => {
        try {
          task();
        } catch (error) {
          rethrown.push(error);
        }
      }),
    );
    const span = (name: string) => ({
      setAttributes() {},
      recordError() {},
      end() {
        if (name === "agent.procedure_execution") throw new Error("exporter down");
      },
    });
    const tracing: TracingAdapter = { startSpan: (name) => span(name) };
    // The runtime reports the exporter's failure on stderr; captured here so a green run reads green.
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    const events: AgentAuditEvent[] = [];
    const runtime = runtimeWith({ stuck: stuck(D) }, (e) => void events.push(e), tracing);
    const calls = [watch(runtime.invoke("stuck", undefined, call)), watch(runtime.invoke("stuck", undefined, call))];
    await vi.advanceTimersByTimeAsync(D);
    await vi.advanceTimersByTimeAsync(10 * D);
    // Each call ended once: a governed call may not hang because an exporter failed.
    expect(calls.map((c) => c.settledCount)).toEqual([1, 1]);
    expect(calls.map(codeOf)).toEqual(["TIMEOUT", "TIMEOUT"]);
    expectOneTerminalEach(events, calls.map(idOf));
    expect(vi.getTimerCount()).toBe(0);
    expect(printed).toHaveBeenCalledWith("[orpc-agent] tracing adapter failed in span.end:", expect.objectContaining({ message: "exporter down" }));
    printed.mockRestore();
  });
});

describe("SI-12: durations beyond a timer's reach and of one millisecond, side by side", () => {
  it("SI-12: timeouts past 2^31-1 ms neither fire at the timer limit nor get lost, while 1 ms calls come and go", async () => {
    vi.useFakeTimers();
    const MAX = 2_147_483_647;
    const origin = performance.now();
    const { runtime, events } = build({
      defs: {
        atMax: stuck(MAX),
        pastMax: stuck(MAX + 1),
        huge: stuck(3_000_000_000),
        tiny: stuck(1),
        half: stuck(0.5),
        vast: base.meta({ agent: meta({ timeoutMs: 1e300 }) }).handler(() => new Promise<string>((resolve) => setTimeout(() => resolve("vast done"), 10))),
      },
    });
    const atMax = watch(runtime.invoke("atMax", undefined, call));
    const pastMax = watch(runtime.invoke("pastMax", undefined, call));
    const huge = watch(runtime.invoke("huge", undefined, call));
    const vast = watch(runtime.invoke("vast", undefined, call));
    const tinies: Seen[] = [];
    for (let t = 0; t < 5; t++) {
      tinies.push(watch(runtime.invoke("tiny", undefined, call)));
      await vi.advanceTimersByTimeAsync(1);
    }
    const half = watch(runtime.invoke("half", undefined, call));
    const halfStart = performance.now();
    await vi.advanceTimersByTimeAsync(2);
    expect(tinies.map(codeOf)).toEqual(["TIMEOUT", "TIMEOUT", "TIMEOUT", "TIMEOUT", "TIMEOUT"]);
    tinies.forEach((s, t) => expect(s.at! - origin).toBe(t + 1));
    expect(codeOf(half)).toBe("TIMEOUT");
    expect(half.at! - halfStart).toBeGreaterThanOrEqual(0.5);
    await vi.advanceTimersByTimeAsync(20);
    expect(vast.result).toMatchObject({ status: "completed", output: "vast done" });

    await vi.advanceTimersByTimeAsync(MAX - 1 - (performance.now() - origin));
    expect([atMax.result, pastMax.result, huge.result]).toEqual([undefined, undefined, undefined]);
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(atMax)).toBe("TIMEOUT");
    expect(atMax.at! - origin).toBe(MAX);
    expect(pastMax.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(pastMax)).toBe("TIMEOUT");
    expect(pastMax.at! - origin).toBe(MAX + 1);
    await vi.advanceTimersByTimeAsync(3_000_000_000 - 1 - (performance.now() - origin));
    expect(huge.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(huge)).toBe("TIMEOUT");
    expect(huge.at! - origin).toBe(3_000_000_000);
    expectOneTerminalEach(events, [atMax, pastMax, huge, vast, half, ...tinies].map(idOf));
    expect(vi.getTimerCount()).toBe(0);
  });
});
