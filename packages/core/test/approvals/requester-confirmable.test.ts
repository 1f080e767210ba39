import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  requireApproval,
  allow,
  type ApprovalRecord,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W1", "W3"]);

// approvals.requesterConfirmable (ADR-006 addendum): the requester may confirm their own request only when every
// type it demands is declared confirmable; self-approval stays refused for every other type (SI-4).

const REQUESTER = { id: "user_dana", kind: "user" } as const;

function setup(options: { handler?: () => Promise<{ status: "approved"; approver: typeof REQUESTER } | undefined> } = {}) {
  const runs: string[] = [];
  const registry = createCapabilityRegistry({
    notes: {
      send: agentProcedure(os)
        .input(z.object({ to: z.string(), amount: z.number().optional() }))
        .meta(agentMeta({ description: "Send a note.", expose: { aiSdk: true }, sideEffect: "external", risk: "medium", approval: { required: true, type: "confirmation" } }))
        .handler(({ input }) => {
          runs.push(input.to);
          return { sent: input.to };
        }),
    },
  });
  // Large sends also need a manager: the merged request lists both types.
  const large = definePolicy("large-sends", (req) => ((req.input as { amount?: number }).amount! > 100 ? requireApproval({ reason: "Large send.", approvalType: "manager" }) : allow()), {
    phases: ["invocation"],
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry, policies: [large] }),
    approvals: { requesterConfirmable: ["confirmation"], ...(options.handler ? { handler: options.handler } : {}) },
  });
  const request = async (input: { to: string; amount?: number }): Promise<ApprovalRecord> => {
    const result = await runtime.invoke("notes.send", input, { actor: REQUESTER, context: {}, surface: "aiSdk" });
    if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
    return result.approval;
  };
  return { runtime, runs, request };
}

describe("approvals.requesterConfirmable", () => {
  it("SI-4: the requester confirms a confirmation-only request through decide, and resume runs it once", async () => {
    const { runtime, runs, request } = setup();
    const record = await request({ to: "ops" });
    expect(record.types).toEqual(["confirmation"]);
    await runtime.approvals.decide(record.id, { status: "approved", approver: REQUESTER });
    expect(await runtime.resume(record.id, { context: {}, expectedActor: REQUESTER, expectedSurface: "aiSdk" })).toMatchObject({ status: "completed", output: { sent: "ops" } });
    expect(await runtime.resume(record.id, { context: {}, expectedActor: REQUESTER, expectedSurface: "aiSdk" })).toMatchObject({ status: "failed", error: { code: "APPROVAL_CONSUMED" } });
    expect(runs).toEqual(["ops"]);
  });

  it("SI-4: a request that also demands a manager type cannot be confirmed by the requester", async () => {
    const { runtime, runs, request } = setup();
    const record = await request({ to: "ops", amount: 500 });
    expect([...record.types].sort()).toEqual(["confirmation", "manager"]);
    await expect(runtime.approvals.decide(record.id, { status: "approved", approver: REQUESTER })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    expect((await runtime.approvals.get(record.id))?.status).toBe("pending");
    expect(runs).toEqual([]);
  });

  it("SI-4: an inline self-decision passes only for confirmable types", async () => {
    const { runtime, runs } = setup({ handler: async () => ({ status: "approved", approver: REQUESTER }) });
    expect(await runtime.invoke("notes.send", { to: "ops" }, { actor: REQUESTER, context: {}, surface: "aiSdk" })).toMatchObject({ status: "completed" });
    expect(await runtime.invoke("notes.send", { to: "ops", amount: 500 }, { actor: REQUESTER, context: {}, surface: "aiSdk" })).toMatchObject({
      status: "failed",
      error: { code: "APPROVAL_SELF_APPROVAL" },
    });
    expect(runs).toEqual(["ops"]);
  });

  it("rejects an ill-formed requesterConfirmable at construction", () => {
    const registry = createCapabilityRegistry({});
    expect(() => createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { requesterConfirmable: "confirmation" as never } })).toThrow(TypeError);
    expect(() => createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { requesterConfirmable: [""] } })).toThrow(/requesterConfirmable/);
  });
});
