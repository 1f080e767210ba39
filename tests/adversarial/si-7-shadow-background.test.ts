// SI-7 for shadow policies that take their time (issue 43, decided there): a shadow never delays the enforced answer.
// It used to: the call waited for its shadows, so one that never settled added the rest of the policy budget to every
// call. Now shadows settle in the background under their own bound, and their divergence is recorded when they answer
// or time out; drainAudit waits for them, so nothing is lost. No clock is read: a shadow waits on a promise the test
// holds, under a bound far longer than any test, so the call can only finish first if it does not wait.
import { createInMemoryApprovalCoordinator, definePolicy, deny, hide, requireApproval, type AgentPolicy } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

captureStartupWarnings([]);

const FOREVER = { policyTimeoutMs: 3_600_000, discoveryBudgetMs: 3_600_000 };

/** A shadow that answers only when the test says so, and reports whether it was asked. */
function heldShadow(phases: AgentPolicy["phases"] = ["invocation"]) {
  let answer!: (decision: unknown) => void;
  const state = { asked: 0, answered: false };
  const answered = new Promise<unknown>((resolve) => (answer = resolve));
  const policy = definePolicy(
    "held",
    () => {
      state.asked++;
      return answered as never;
    },
    { mode: "shadow", phases },
  );
  return { policy, state, answer: (decision: unknown) => ((state.answered = true), answer(decision)) };
}

function counted() {
  const ran = { count: 0 };
  const procedure = base
    .input(z.object({ text: z.string() }))
    .meta({ agent: meta() })
    .handler(({ input }) => (ran.count++, { text: input.text }));
  return { procedure, ran };
}

const shadowEvents = (events: { type: string; data: unknown }[]) => events.filter((e) => e.type === "capability.shadow_diverged").map((e) => e.data);

describe("a pending shadow does not hold the enforced answer (SI-7)", () => {
  for (const phase of ["invocation", "execution"] as const) {
    it(`SI-7: an ${phase} shadow still pending: the call completes first, and its divergence is recorded when it answers`, async () => {
      const cap = counted();
      const held = heldShadow([phase]);
      const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [held.policy], defaults: FOREVER });

      const result = await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} });
      expect(result).toMatchObject({ status: "completed", output: { text: "x" } });
      expect(cap.ran.count).toBe(1);
      expect(held.state).toEqual({ asked: 1, answered: false });
      expect(shadowEvents(events)).toEqual([]);

      held.answer(deny("late", "Too late."));
      await runtime.drainAudit();
      expect(shadowEvents(events)).toEqual([{ policy: "held", phase, decision: "deny", enforced: "allow" }]);
      // Recorded under the execution it shadowed, after that execution's terminal event.
      const diverged = events.find((e) => e.type === "capability.shadow_diverged")!;
      expect(diverged.executionId).toBe(result.executionId);
      expect(events.map((e) => e.type).slice(-2)).toEqual(["capability.completed", "capability.shadow_diverged"]);
    });
  }

  it("SI-7: an enforced deny is answered at once while a shadow is pending, and the shadow's allow is recorded later", async () => {
    const cap = counted();
    const held = heldShadow();
    const denies = definePolicy("denies", () => deny("no", "Denied."));
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [denies, held.policy], defaults: FOREVER });
    expect(errorOf(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).code).toBe("POLICY_DENIED");
    expect(held.state.answered).toBe(false);
    held.answer({ type: "allow" });
    await runtime.drainAudit();
    expect(shadowEvents(events)).toEqual([{ policy: "held", phase: "invocation", decision: "allow", enforced: "deny" }]);
  });

  it("SI-7: a call that suspends for approval and its resume do not wait for pending shadows either", async () => {
    const cap = counted();
    const invocation = heldShadow(["invocation"]);
    const execution = heldShadow(["execution"]);
    const gate = definePolicy("gate", () => requireApproval({ reason: "Check." }));
    const { runtime, events } = build({
      defs: { op: cap.procedure },
      policies: [gate, invocation.policy, execution.policy],
      approvals: { coordinator: createInMemoryApprovalCoordinator() },
      defaults: FOREVER,
    });
    const approval = approvalOf(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect(await runtime.resume(approval.id, { context: {} })).toMatchObject({ status: "completed" });
    expect(cap.ran.count).toBe(1);
    // Resume runs the invocation shadow again (R10) and the execution shadow once: three evaluations still held.
    expect(invocation.state).toEqual({ asked: 2, answered: false });
    expect(execution.state).toEqual({ asked: 1, answered: false });
    invocation.answer(hide());
    execution.answer(hide());
    await runtime.drainAudit();
    expect(shadowEvents(events)).toHaveLength(3);
  });

  it("SI-7: a discovery shadow still pending does not hold describe; its divergence is recorded when it answers", async () => {
    const held = heldShadow(["discovery"]);
    const { runtime, events } = build({ defs: { a: counted().procedure, b: counted().procedure }, policies: [held.policy], defaults: FOREVER });
    expect((await runtime.describe("direct", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["a", "b"]);
    expect(held.state).toEqual({ asked: 2, answered: false });
    held.answer(hide());
    await runtime.drainAudit();
    expect(shadowEvents(events)).toEqual([
      { policy: "held", phase: "discovery", decision: "hide", enforced: "allow" },
      { policy: "held", phase: "discovery", decision: "hide", enforced: "allow" },
    ]);
  });
});

describe("a shadow that never answers times out on its own bound, and is recorded (SI-7)", () => {
  it("SI-7: the call completes first; the shadow's time-out is recorded after it, as an error stance", async () => {
    const cap = counted();
    const never = definePolicy("never-settles", () => new Promise<never>(() => {}), { mode: "shadow" });
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [never], defaults: { policyTimeoutMs: 30 } });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await runtime.drainAudit();
    expect(shadowEvents(events)).toEqual([{ policy: "never-settles", phase: "invocation", decision: "error", enforced: "allow" }]);
    // The whole call ran within one turn of the event loop, so it ended before any timer could fire: the time-out
    // is recorded after the terminal event, never before it.
    expect(events.map((e) => e.type).slice(-2)).toEqual(["capability.completed", "capability.shadow_diverged"]);
  });

  it("SI-7: drainAudit waits for a pending shadow: a drain shorter than the shadow fails AUDIT_UNAVAILABLE, the next one finds its event", async () => {
    const held = heldShadow();
    const { runtime, events } = build({ defs: { op: counted().procedure }, policies: [held.policy], defaults: FOREVER });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await expect(runtime.drainAudit({ timeoutMs: 20 })).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    held.answer(deny());
    await runtime.drainAudit();
    expect(shadowEvents(events)).toEqual([{ policy: "held", phase: "invocation", decision: "deny", enforced: "allow" }]);
  });
});
