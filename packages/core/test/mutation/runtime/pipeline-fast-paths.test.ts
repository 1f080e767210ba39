// Raised from the mutation run: the cost rule of docs/architecture/spec/core.md#core-16 that forbids a needless async hop, and the
// SI-6 rule that input is frozen only when a policy applies, each seen through something a user can observe.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import { agentMeta, allow, definePolicy, type ApprovalRequest } from "../../../src/index.js";
import { recordingTracer } from "../../runtime/execution-harness.js";
import { base, build, dana, meta, priya } from "../../runtime/pipeline-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W3"]);

describe("core.md §16: no async hop that is not needed", () => {
  it("with a synchronous schema, policies, hashing and sink, stages 2..11 run before invoke returns", async () => {
    const tracer = recordingTracer();
    const procedure = base
      .input(z.object({ amount: z.number() }))
      .meta(agentMeta(meta()))
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

describe("SI-6: the input is snapshotted (frozen) exactly when a policy, an approval or a sink looks at it", () => {
  async function handlerSaw(options: { policies?: ReturnType<typeof definePolicy>[]; approval?: boolean; sink?: boolean }) {
    const seen: unknown[] = [];
    const pay = base
      .input(z.object({ amount: z.number() }))
      .meta(agentMeta(meta({ sideEffect: "write", ...(options.approval ? { approval: { required: true } } : {}) })))
      .handler(({ input }) => (seen.push(input), "paid"));
    const { runtime } = build({
      defs: { pay },
      policies: options.policies ?? [],
      ...(options.sink ? {} : { audit: [] }),
      approvals: { handler: async (_req: ApprovalRequest) => ({ status: "approved", approver: priya }) },
    });
    expect((await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} })).status).toBe("completed");
    expect(seen).toEqual([{ amount: 5 }]);
    return seen[0];
  }

  it("on the plain path (no policy, no approval, no sink) the handler gets the validated value unfrozen", async () => {
    expect(Object.isFrozen(await handlerSaw({}))).toBe(false);
  });

  it("with an approval, a sink, or an invocation-only or execution-only policy, it gets the frozen snapshot", async () => {
    expect(Object.isFrozen(await handlerSaw({ approval: true })), "approval").toBe(true);
    expect(Object.isFrozen(await handlerSaw({ sink: true })), "sink").toBe(true);
    for (const phase of ["invocation", "execution"] as const) {
      expect(Object.isFrozen(await handlerSaw({ policies: [definePolicy("look", () => allow(), { phases: [phase] })] })), phase).toBe(true);
    }
  });
});
