// Raised from the mutation run: the cost rule of core.md §16 that forbids a needless async hop, and the
// SI-6 rule that input is frozen only when a policy applies, each seen through something a user can observe.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { allow, definePolicy, type ApprovalRequest } from "../../../src/index.js";
import { recordingTracer } from "../../runtime/execution-harness.js";
import { base, build, dana, meta, priya } from "../../runtime/pipeline-harness.js";

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
