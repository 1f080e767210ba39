// SI-7: a synchronous policy that overruns its deadline fails closed, like one that times out (issue 22, item 8).
import { allow, definePolicy } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { base, build, dana, errorOf, meta } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W2"]);

const busyFor = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin: a policy doing synchronous work past its deadline
  }
};

describe("synchronous policies and the deadline (SI-7)", () => {
  for (const position of ["only", "second"] as const) {
    it(`SI-7: a synchronous policy that overruns policyTimeoutMs (${position} in the batch) fails closed with POLICY_FAILED`, async () => {
      const ran = { count: 0 };
      const op = base.meta({ agent: meta() }).handler(() => (ran.count++, "done"));
      const slow = definePolicy("slow", () => (busyFor(40), allow()));
      const policies = position === "only" ? [slow] : [definePolicy("fast", () => allow()), slow];
      const { runtime, events } = build({ defs: { op }, policies, defaults: { policyTimeoutMs: 10 } });
      const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
      expect(errorOf(result).code).toBe("POLICY_FAILED");
      expect(ran.count).toBe(0);
      const denied = events.find((e) => e.type === "capability.denied");
      expect(denied?.data).toMatchObject({ reason: "policy-failed" });
    });
  }

  it("SI-7: a synchronous policy that overruns the deadline at discovery hides the capability", async () => {
    const op = base.meta({ agent: meta() }).handler(() => "done");
    const slow = definePolicy("slow", () => (busyFor(40), allow()), { phases: ["discovery"] });
    const { runtime } = build({ defs: { op }, policies: [slow], defaults: { policyTimeoutMs: 10 } });
    expect(await runtime.describe("aiSdk", { actor: dana, context: {} })).toEqual([]);
  });
});
