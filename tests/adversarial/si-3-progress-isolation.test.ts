// Progress (issue 46) through the runtime: each execution's updates go to its own caller's onProgress and nowhere
// else (SI-3: state is per principal), a flood stays bounded and never outlives the result (SI-12), and progress is
// never audited (SI-10). The attacks: concurrent calls of one capability by two principals, a call that did not ask
// beside one that did, a handler that reports 100 000 updates in a tight loop, updates after the result, hostile
// update objects and a throwing callback.
import type { AgentInvocationInfo, ProgressUpdate } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta, mo } from "./support/runtime.js";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Ctx = { agent: AgentInvocationInfo };

describe("SI-3: progress never crosses to another call", () => {
  it("SI-3: two principals calling one capability at once each see only their own updates", async () => {
    const gates = new Map<string, { promise: Promise<void>; resolve: () => void }>([
      ["dana", deferred()],
      ["mo", deferred()],
    ]);
    const job = base
      .input(z.object({ tag: z.string() }))
      .meta({ agent: meta({ sideEffect: "read", risk: "low" }) })
      .handler(async ({ input, context }) => {
        const { agent } = context as Ctx;
        agent.reportProgress({ progress: 1, message: `${agent.actor.id}:${input.tag}:1` });
        await gates.get(agent.actor.id)!.promise;
        agent.reportProgress({ progress: 2, message: `${agent.actor.id}:${input.tag}:2` });
        return input.tag;
      });
    const { runtime } = build({ defs: { job }, defaults: { progressIntervalMs: 1 } });
    const seen = { dana: [] as ProgressUpdate[], mo: [] as ProgressUpdate[] };
    const a = runtime.invoke("job", { tag: "A" }, { actor: dana, context: {}, onProgress: (u) => void seen.dana.push(u) });
    const b = runtime.invoke("job", { tag: "B" }, { actor: mo, context: {}, onProgress: (u) => void seen.mo.push(u) });
    // A third call that did not ask: its updates go nowhere.
    const c = runtime.invoke("job", { tag: "C" }, { actor: dana, context: {} });
    gates.get("mo")!.resolve();
    gates.get("dana")!.resolve();
    await Promise.all([a, b, c]);
    expect(seen.dana.map((u) => u.message)).toEqual(["dana:A:1", "dana:A:2"]);
    expect(seen.mo.map((u) => u.message)).toEqual(["mo:B:1", "mo:B:2"]);
  });

  it("SI-3: the caller receives a fresh copy, never the handler's object, and cannot reach the handler through it", async () => {
    let reported: Record<string, unknown> | undefined;
    const job = base.meta({ agent: meta({ sideEffect: "read", risk: "low" }) }).handler(({ context }) => {
      reported = { progress: 1, total: 2, message: "half", internal: { token: "t0p-secret" } };
      (context as Ctx).agent.reportProgress(reported as never);
      return "ok";
    });
    const { runtime } = build({ defs: { job } });
    const seen: ProgressUpdate[] = [];
    await runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void seen.push(u) });
    expect(seen).toEqual([{ progress: 1, total: 2, message: "half" }]);
    expect(seen[0]).not.toBe(reported);
    expect(Object.isFrozen(seen[0])).toBe(true);
  });
});

describe("SI-12: progress is bounded and ends with the result", () => {
  it("SI-12: 100 000 updates in a tight loop deliver a bounded number of callbacks, the last one before the result", async () => {
    const job = base.meta({ agent: meta({ sideEffect: "read", risk: "low" }) }).handler(({ context }) => {
      const { agent } = context as Ctx;
      for (let i = 1; i <= 100_000; i++) agent.reportProgress({ progress: i, total: 100_000 });
      return "done";
    });
    const { runtime } = build({ defs: { job } });
    const seen: ProgressUpdate[] = [];
    let resultArrived = false;
    const result = await runtime.invoke("job", undefined, {
      actor: dana,
      context: {},
      onProgress: (u) => {
        expect(resultArrived).toBe(false);
        seen.push(u);
      },
    });
    resultArrived = true;
    expect(result.status).toBe("completed");
    // The first at once, the latest kept and flushed before the result: nothing in between.
    expect(seen).toEqual([
      { progress: 1, total: 100_000 },
      { progress: 100_000, total: 100_000 },
    ]);
  });

  it("SI-12: a flood spread over time is throttled to about one callback per interval", async () => {
    const job = base.meta({ agent: meta({ sideEffect: "read", risk: "low" }) }).handler(async ({ context }) => {
      const { agent } = context as Ctx;
      for (let i = 1; i <= 2_000; i++) {
        agent.reportProgress({ progress: i });
        if (i % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return "done";
    });
    const { runtime } = build({ defs: { job }, defaults: { progressIntervalMs: 1_000_000 } });
    const seen: ProgressUpdate[] = [];
    await runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void seen.push(u) });
    // One window never ends during the call: the first update, then the latest at the result.
    expect(seen.map((u) => u.progress)).toEqual([1, 2_000]);
  });

  it("SI-12: updates after the result, from a handler that outlives its timeout, never reach the caller", async () => {
    const release = deferred();
    const after = deferred();
    const job = base.meta({ agent: meta({ sideEffect: "read", risk: "low", timeoutMs: 20 }) }).handler(async ({ context }) => {
      const { agent } = context as Ctx;
      agent.reportProgress({ progress: 1 });
      await release.promise;
      for (let i = 2; i < 50; i++) agent.reportProgress({ progress: i });
      after.resolve();
      return "late";
    });
    const { runtime } = build({ defs: { job }, defaults: { progressIntervalMs: 1 } });
    const seen: number[] = [];
    const result = await runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void seen.push(u.progress) });
    expect(result.status).toBe("cancelled");
    release.resolve();
    await after.promise;
    for (let i = 0; i < 5; i++) await turn();
    expect(seen).toEqual([1]);
  });

  it("SI-12: hostile updates are dropped, a throwing or rejecting callback changes nothing, and the handler never sees a throw", async () => {
    const outcomes: string[] = [];
    const job = base.meta({ agent: meta({ sideEffect: "read", risk: "low" }) }).handler(({ context }) => {
      const { agent } = context as Ctx;
      const attempts: unknown[] = [
        null,
        "50%",
        { progress: Number.NaN },
        { progress: Number.POSITIVE_INFINITY },
        { progress: "1" },
        { progress: 1, total: "2" },
        { progress: 1, message: 42 },
        Object.defineProperty({}, "progress", { get: () => { throw new Error("getter bomb"); } }),
        { progress: 5, message: "x".repeat(10_000) },
        { progress: 5 }, // not above the last
        { progress: 4 }, // going backwards
        { progress: 6 },
      ];
      for (const update of attempts) {
        try {
          agent.reportProgress(update as never);
          outcomes.push("ok");
        } catch {
          outcomes.push("threw");
        }
      }
      return "done";
    });
    const { runtime, events } = build({ defs: { job }, defaults: { progressIntervalMs: 1 } });
    const seen: ProgressUpdate[] = [];
    let calls = 0;
    const result = await runtime.invoke("job", undefined, {
      actor: dana,
      context: {},
      onProgress: (u) => {
        seen.push(u);
        calls++;
        if (calls === 1) throw new Error("callback bomb");
        return Promise.reject(new Error("async callback bomb")) as never;
      },
    });
    expect(result).toMatchObject({ status: "completed", output: "done" });
    expect(outcomes.every((o) => o === "ok")).toBe(true);
    expect(seen.map((u) => u.progress)).toEqual([5, 6]);
    expect(seen[0]!.message).toHaveLength(1_000);
    // SI-10: progress is never audited, one by one or at all.
    expect(JSON.stringify(events)).not.toContain("xxxx");
    expect(events.map((e) => e.type)).toEqual(["capability.requested", "capability.started", "capability.completed"]);
  });
});
