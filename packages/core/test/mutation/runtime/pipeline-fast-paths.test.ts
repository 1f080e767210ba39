// Raised from the mutation run: the cost rules of core.md §16 (no needless async hop, no event without sinks) and the
// SI-6 rule that input is frozen only when a policy applies, each seen through something a user can observe.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { allow, definePolicy, type ApprovalRequest } from "../../../src/index.js";
import { recordingTracer } from "../../runtime/execution-harness.js";
import { base, build, counted, dana, meta, priya } from "../../runtime/pipeline-harness.js";

describe("core.md §16: no async hop that is not needed", () => {
  it("with a synchronous schema, policies, hashing and sink, stages 2..11 run before invoke returns", async () => {
    const tracer = recordingTracer();
    const procedure = base
      .input(z.object({ amount: z.number() }))
      .meta({ agent: meta() })
      .handler(({ input }) => input.amount);
    // One policy in both phases, so stage 7 and stage 9 each run a synchronous batch.
    const look = definePolicy("look", () => allow(), { phases: ["invocation", "execution"] });
    const { runtime, events } = build({ defs: { pay: procedure }, policies: [look], tracing: tracer.adapter });

    const pending = runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    // Still in the caller's turn: the sink (hence the hash) has the start event and the attempt span is open.
    expect(events.map((e) => e.type)).toEqual(["capability.requested", "capability.started"]);
    expect(events[1]!.inputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tracer.named("agent.procedure_execution")).toHaveLength(1);
    expect(await pending).toMatchObject({ status: "completed", output: 5 });
  });
});

describe("core.md §16: with no sinks, no event is built", () => {
  function countingClock() {
    const reads = { count: 0 };
    return { reads, now: () => (reads.count++, new Date(Date.UTC(2030, 0, 1))) };
  }

  it("the runtime clock is read only for the start instant of a completed or denied call", async () => {
    for (const id of ["a", "missing"]) {
      const clock = countingClock();
      const { runtime } = build({ defs: { a: counted().procedure }, audit: [], now: clock.now });
      await runtime.invoke(id, undefined, { actor: dana, context: {} });
      expect(clock.reads.count, id).toBe(1);
    }
  });

  it("with a sink, the same calls read it again for their terminal event", async () => {
    for (const id of ["a", "missing"]) {
      const clock = countingClock();
      const { runtime, events } = build({ defs: { a: counted().procedure }, now: clock.now });
      await runtime.invoke(id, undefined, { actor: dana, context: {} });
      expect(events.at(-1)!.type).toBe(id === "a" ? "capability.completed" : "capability.denied");
      expect(clock.reads.count, id).toBeGreaterThan(1);
    }
  });
});

describe("SI-6 as revised for cost: the validated input is frozen only when a policy applies", () => {
  async function requestSeen(policies: ReturnType<typeof definePolicy>[]) {
    const requests: ApprovalRequest[] = [];
    const gated = base
      .input(z.object({ amount: z.number() }))
      .meta({ agent: meta({ sideEffect: "write", approval: { required: true } }) })
      .handler(() => "paid");
    const { runtime } = build({
      defs: { pay: gated },
      policies,
      approvals: { handler: async (req) => (requests.push(req), { status: "approved", approver: priya }) },
    });
    expect((await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} })).status).toBe("completed");
    return requests[0]!;
  }

  it("with no policy, the approval handler gets the validated value unfrozen", async () => {
    const request = await requestSeen([]);
    expect(request.input).toEqual({ amount: 5 });
    expect(Object.isFrozen(request.input)).toBe(false);
  });

  it("with an invocation-only or an execution-only policy, it gets the frozen copy", async () => {
    for (const phase of ["invocation", "execution"] as const) {
      const request = await requestSeen([definePolicy("look", () => allow(), { phases: [phase] })]);
      expect(Object.isFrozen(request.input), phase).toBe(true);
    }
  });
});
