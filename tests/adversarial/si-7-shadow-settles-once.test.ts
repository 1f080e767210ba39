// SI-7 for shadow policies that settle in the background (issue 43): whatever a shadow does after the call answered,
// its stance is recorded exactly once, and never changes the answer. The attacks: a shadow that answers after its own
// time-out was recorded (is the late answer recorded a second time?), a thenable that is no Promise and never calls
// back, one that calls back twice with different answers, one that calls back synchronously inside `then`, a shadow
// that throws synchronously, and a drain that gives up before a shadow settles (is the outcome lost?).
import { definePolicy, deny, hide, type AgentPolicy } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { base, build, dana, meta } from "./support/runtime.js";

captureStartupWarnings([]);

function counted() {
  const ran = { count: 0 };
  const procedure = base
    .input(z.object({ text: z.string() }))
    .meta({ agent: meta() })
    .handler(({ input }) => (ran.count++, { text: input.text }));
  return { procedure, ran };
}

const shadow = (name: string, evaluate: AgentPolicy["evaluate"]) => definePolicy(name, evaluate, { mode: "shadow" });
const diverged = (events: { type: string; data: unknown }[]) => events.filter((e) => e.type === "capability.shadow_diverged").map((e) => e.data);

describe("a shadow's stance is recorded exactly once (SI-7)", () => {
  it("SI-7: a shadow that answers after its own time-out was recorded is not recorded again with the late answer", async () => {
    let answer!: (decision: unknown) => void;
    const late = shadow("late", () => new Promise((resolve) => (answer = resolve)) as never);
    const cap = counted();
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [late], defaults: { policyTimeoutMs: 20 } });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await runtime.drainAudit();
    expect(diverged(events)).toEqual([{ policy: "late", phase: "invocation", decision: "error", enforced: "allow" }]);
    answer(deny("late", "Too late."));
    await runtime.drainAudit();
    expect(diverged(events)).toEqual([{ policy: "late", phase: "invocation", decision: "error", enforced: "allow" }]);
    expect(cap.ran.count).toBe(1);
  });

  it("SI-7: a thenable that is no Promise and never calls back times out on the shadow's bound, recorded once", async () => {
    const silent = shadow("silent", () => ({ then() {} }) as never);
    const { runtime, events } = build({ defs: { op: counted().procedure }, policies: [silent], defaults: { policyTimeoutMs: 20 } });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await runtime.drainAudit();
    await runtime.drainAudit();
    expect(diverged(events)).toEqual([{ policy: "silent", phase: "invocation", decision: "error", enforced: "allow" }]);
  });

  it("SI-7: a thenable that calls back twice (deny, then hide, then a rejection) is recorded once, with its first answer", async () => {
    let later!: () => void;
    const twice = shadow("twice", () => ({
      then(onFulfilled: (value: unknown) => void, onRejected: (reason: unknown) => void) {
        onFulfilled(deny("first", "First."));
        later = () => {
          onFulfilled(hide());
          onRejected(new Error("third"));
        };
      },
    }) as never);
    const { runtime, events } = build({ defs: { op: counted().procedure }, policies: [twice] });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await runtime.drainAudit();
    later();
    await runtime.drainAudit();
    expect(diverged(events)).toEqual([{ policy: "twice", phase: "invocation", decision: "deny", enforced: "allow" }]);
  });

  it("SI-7: a shadow that throws synchronously is one error stance, and the call completes as without it", async () => {
    const throws = shadow("throws", () => {
      throw new Error("shadow broke");
    });
    const cap = counted();
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [throws] });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed", output: { text: "x" } });
    await runtime.drainAudit();
    expect(diverged(events)).toEqual([{ policy: "throws", phase: "invocation", decision: "error", enforced: "allow" }]);
    expect(cap.ran.count).toBe(1);
  });

  it("SI-7: a drain that gives up before the shadows settle loses nothing: each stance is recorded once when it settles", async () => {
    const answers: ((decision: unknown) => void)[] = [];
    const held = shadow("held", () => new Promise((resolve) => answers.push(resolve)) as never);
    const { runtime, events } = build({ defs: { op: counted().procedure }, policies: [held], defaults: { policyTimeoutMs: 3_600_000 } });
    for (let i = 0; i < 2; i++) expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await expect(runtime.drainAudit({ timeoutMs: 10 })).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    answers[0]!(hide());
    // One shadow still pending: the next drain gives up too, and the settled one is already recorded.
    await expect(runtime.drainAudit({ timeoutMs: 10 })).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    expect(diverged(events)).toEqual([{ policy: "held", phase: "invocation", decision: "hide", enforced: "allow" }]);
    answers[1]!(deny());
    await runtime.drainAudit();
    expect(diverged(events)).toEqual([
      { policy: "held", phase: "invocation", decision: "hide", enforced: "allow" },
      { policy: "held", phase: "invocation", decision: "deny", enforced: "allow" },
    ]);
  });
});
