// Stage 11's timeouts share one timer per duration (internal/deadline-queue.ts, issue 28). Whatever the sharing,
// each attempt must time out at its own deadline, never before it, and leave nothing scheduled (SI-12, docs/architecture/spec/core.md#core-16).
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineQueue, type DeadlineEntry } from "../../src/internal/deadline-queue.js";
import { agentMeta, type ExecutionResult } from "../../src/index.js";
import { base, build, dana, meta } from "./pipeline-harness.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const stuck = (timeoutMs: number) => base.meta(agentMeta(meta({ timeoutMs }))).handler(() => new Promise<never>(() => {}));

function watch(pending: Promise<ExecutionResult<unknown>>) {
  const seen: { result?: ExecutionResult<unknown> } = {};
  void pending.then((result) => (seen.result = result));
  return seen;
}

const entry = (name: string, log: string[], onExpire?: () => void): DeadlineEntry => ({
  due: 0,
  prevDue: undefined,
  nextDue: undefined,
  queue: undefined,
  expire() {
    log.push(name);
    onExpire?.();
  },
});

describe("attempt deadlines on a shared timer", () => {
  it("SI-12: two calls of one duration started 50 ms apart each time out at their own deadline, on one timer", async () => {
    vi.useFakeTimers();
    const { runtime } = build({ defs: { stuck: stuck(100) } });
    const first = watch(runtime.invoke("stuck", undefined, { actor: dana, context: {} }));
    await vi.advanceTimersByTimeAsync(50);
    const second = watch(runtime.invoke("stuck", undefined, { actor: dana, context: {} }));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(49);
    expect(first.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(first.result?.status === "cancelled" && first.result.error.code).toBe("TIMEOUT");
    expect(second.result).toBeUndefined();

    await vi.advanceTimersByTimeAsync(49);
    expect(second.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(second.result?.status === "cancelled" && second.result.error.code).toBe("TIMEOUT");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("SI-12: calls of different durations keep their own deadlines", async () => {
    vi.useFakeTimers();
    const { runtime } = build({ defs: { slow: stuck(300), quick: stuck(20) } });
    const slow = watch(runtime.invoke("slow", undefined, { actor: dana, context: {} }));
    const quick = watch(runtime.invoke("quick", undefined, { actor: dana, context: {} }));
    await vi.advanceTimersByTimeAsync(20);
    expect(quick.result?.status).toBe("cancelled");
    expect(slow.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(280);
    expect(slow.result?.status).toBe("cancelled");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("releases the timer when the last pending call completes, and keeps it while one is pending", async () => {
    vi.useFakeTimers();
    let release!: (value: string) => void;
    const parked = base.meta(agentMeta(meta({ timeoutMs: 1_000 }))).handler(() => new Promise<string>((resolve) => (release = resolve)));
    const { runtime } = build({ defs: { parked, waiting: stuck(1_000) } });
    const held = watch(runtime.invoke("parked", undefined, { actor: dana, context: {} }));
    const waiting = watch(runtime.invoke("waiting", undefined, { actor: dana, context: {} }));
    await vi.advanceTimersByTimeAsync(0);
    release("done");
    await vi.advanceTimersByTimeAsync(0);
    expect(held.result).toMatchObject({ status: "completed", output: "done" });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(waiting.result?.status).toBe("cancelled");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("DeadlineQueue", () => {
  it("SI-12: a timer that fires before the monotonic deadline re-arms instead of expiring early", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 1_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const log: string[] = [];
    const queue = new DeadlineQueue(100);
    queue.add(entry("a", log));
    now = 1_099.5;
    vi.advanceTimersByTime(100);
    expect(log).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    now = 1_100;
    vi.advanceTimersByTime(1);
    expect(log).toEqual(["a"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("expires every entry that is due, in order, and one failing entry starves none of the rest", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const rethrown: (() => void)[] = [];
    vi.spyOn(globalThis, "queueMicrotask").mockImplementation((task) => void rethrown.push(task));
    const log: string[] = [];
    const queue = new DeadlineQueue(10);
    queue.add(
      entry("a", log, () => {
        throw new Error("a failed");
      }),
    );
    now = 5;
    queue.add(entry("b", log));
    now = 7;
    queue.add(entry("c", log));
    now = 15;
    vi.advanceTimersByTime(10);
    expect(log).toEqual(["a", "b"]);
    now = 17;
    vi.advanceTimersByTime(2);
    expect(log).toEqual(["a", "b", "c"]);
    expect(vi.getTimerCount()).toBe(0);
    // The failure is not swallowed: it is thrown again, outside the loop, as an uncaught error.
    expect(rethrown).toHaveLength(1);
    expect(() => rethrown[0]!()).toThrow("a failed");
  });

  it("removal is idempotent and unlinks from the middle, the head and the tail", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const log: string[] = [];
    const queue = new DeadlineQueue(10);
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => entry(name, log));
    for (const e of [a!, b!, c!, d!]) queue.add(e);
    queue.remove(b!);
    queue.remove(b!);
    queue.remove(a!);
    queue.remove(d!);
    expect(vi.getTimerCount()).toBe(1);
    now = 10;
    vi.advanceTimersByTime(10);
    expect(log).toEqual(["c"]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
