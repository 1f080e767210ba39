// Timeouts longer than a timer can hold (2^31 − 1 ms, about 24.8 days). Node fires such a timer after 1 ms with a
// TimeoutOverflowWarning, so an unclamped 30-day timeout would cancel every call at once.
import { afterEach, describe, expect, it } from "vitest";
import { agentMeta, allow, definePolicy } from "../../src/index.js";
import { MAX_TIMER_DELAY_MS, timerDelay } from "../../src/internal/promise.js";
import { base, build, dana, meta } from "./pipeline-harness.js";

const THIRTY_DAYS = 30 * 24 * 60 * 60 * 1000;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.name);
process.on("warning", onWarning);
afterEach(() => {
  warnings.length = 0;
});

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("timeouts beyond the longest timer delay", () => {
  it("caps a delay at the longest one a timer holds, and leaves shorter ones alone", () => {
    expect(MAX_TIMER_DELAY_MS).toBe(2 ** 31 - 1);
    expect(timerDelay(THIRTY_DAYS)).toBe(MAX_TIMER_DELAY_MS);
    expect(timerDelay(1500)).toBe(1500);
  });

  it("a capability with a 30-day timeout runs its procedure to completion instead of timing out at once", async () => {
    const slow = base.meta(agentMeta(meta({ timeoutMs: THIRTY_DAYS }))).handler(async () => {
      await after(20);
      return "done";
    });
    const { runtime } = build({ defs: { slow } });
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: "done" });
    await after(0);
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });

  it("an asynchronous policy under a 30-day policy timeout is waited for, not failed", async () => {
    const slowAllow = definePolicy("slow-allow", async () => {
      await after(20);
      return allow();
    });
    const { runtime } = build({
      defs: { quick: base.meta(agentMeta(meta())).handler(() => "done") },
      policies: [slowAllow],
      defaults: { policyTimeoutMs: THIRTY_DAYS },
    });
    const result = await runtime.invoke("quick", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: "done" });
    await after(0);
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });
});
