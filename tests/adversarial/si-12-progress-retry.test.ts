// SI-12 for progress across retries (issue 46): an attempt that ended (its deadline passed, the runtime moved on to a
// retry) is over, and nothing it does afterwards reaches the caller. The attack: a handler that ignores its abort
// signal and keeps reporting progress while the retry runs. Its late reports must not reach onProgress, and must not
// raise the monotonic floor so that the live attempt's own progress is dropped.
import { eventIterator } from "@orpc/server";
import type { AgentInvocationInfo, ProgressUpdate } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta } from "./support/runtime.js";

type Ctx = { agent: AgentInvocationInfo };

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("SI-12: an ended attempt's progress never reaches the caller", () => {
  it("SI-12: a timed-out attempt that keeps reporting during the retry is dropped; the retry's own progress is delivered", async () => {
    const lateGate = deferred();
    const retryStarted = deferred();
    const retryGate = deferred();
    const idempotencyKeys: string[] = [];
    let attempts = 0;
    const job = base
      .meta({ agent: meta({ sideEffect: "read", risk: "low", timeoutMs: 40, retry: { maxAttempts: 1, backoffMs: 1 } }) })
      .handler(async ({ context }) => {
        const { agent } = context as Ctx;
        idempotencyKeys.push(agent.idempotencyKey);
        const attempt = ++attempts;
        if (attempt === 1) {
          agent.reportProgress({ progress: 1, message: "first attempt, live" });
          // Ignores its signal: still running after its deadline ended it.
          await lateGate.promise;
          agent.reportProgress({ progress: 90, message: "first attempt, after its end" });
          return "stale";
        }
        retryStarted.resolve();
        await retryGate.promise;
        agent.reportProgress({ progress: 2, message: "retry, live" });
        return "fresh";
      });
    const { runtime } = build({ defs: { job }, defaults: { progressIntervalMs: 1 } });
    const seen: ProgressUpdate[] = [];
    const pending = runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void seen.push(u) });
    await retryStarted.promise;
    lateGate.resolve();
    for (let i = 0; i < 3; i++) await turn();
    retryGate.resolve();
    const result = await pending;
    expect(result).toMatchObject({ status: "completed", output: "fresh" });
    expect(seen.map((u) => u.message)).toEqual(["first attempt, live", "retry, live"]);
    // Every attempt still sees one idempotency key.
    expect(idempotencyKeys).toHaveLength(2);
    expect(idempotencyKeys[1]).toBe(idempotencyKeys[0]);
  });

  it("SI-12: a stream cut off by its idle bound before its first event reports nothing more once the retry runs", async () => {
    const lateGate = deferred();
    const retryStarted = deferred();
    let attempts = 0;
    const feed = base
      .output(eventIterator(z.object({ n: z.number() })))
      // The first attempt waits out its idle bound: a wide one, so the retry yields inside it even under load.
      .meta({ agent: meta({ sideEffect: "read", risk: "low", retry: { maxAttempts: 1, backoffMs: 1 }, stream: { idleTimeoutMs: 500 } }) })
      .handler(async function* ({ context }) {
        const { agent } = context as Ctx;
        const attempt = ++attempts;
        if (attempt === 1) {
          await lateGate.promise;
          agent.reportProgress({ progress: 50, message: "stale" });
          yield { n: -1 };
          return;
        }
        retryStarted.resolve();
        // The stale attempt reports while this one is live.
        lateGate.resolve();
        for (let i = 0; i < 3; i++) await turn();
        agent.reportProgress({ progress: 1, message: "fresh" });
        yield { n: 1 };
      });
    const { runtime } = build({ defs: { feed }, defaults: { progressIntervalMs: 1 } });
    const seen: ProgressUpdate[] = [];
    const got: unknown[] = [];
    const result = await runtime.invoke("feed", {}, { actor: dana, context: {}, onProgress: (u) => void seen.push(u), onEvent: (e) => void got.push(e) });
    await retryStarted.promise;
    expect(result).toMatchObject({ status: "completed", output: { n: 1 }, eventCount: 1 });
    expect(got).toEqual([{ n: 1 }]);
    expect(seen.map((u) => u.message)).toEqual(["fresh"]);
  });
});
