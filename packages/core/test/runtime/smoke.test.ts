import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, deny, type AgentAuditEvent } from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W1"]);

const base = agentProcedure(os);
const registry = createCapabilityRegistry({
  orders: {
    get: base
      .input(z.object({ id: z.string() }))
      .meta(agentMeta({ description: "Read an order.", expose: { aiSdk: true, direct: true }, sideEffect: "read", risk: "low" }))
      .handler(({ input, context }) => ({ id: input.id, by: context.agent?.actor.id })),
    refund: base
      .input(z.object({ id: z.string(), amount: z.number() }))
      .meta(agentMeta({ description: "Refund.", expose: { aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(({ input }) => ({ refunded: input.amount })),
  },
});

describe("runtime smoke", () => {
  it("invokes, suspends for approval and resumes once", async () => {
    const events: AgentAuditEvent[] = [];
    const governance = defineGovernance({ registry, policies: [definePolicy("no-mallory", (r) => (r.actor.id === "mallory" ? deny() : { type: "allow" }))] });
    const runtime = createAgentRuntime({ governance, audit: (e) => void events.push(e) });
    const actor = { id: "dana", kind: "user" as const };
    const ok = await runtime.invoke("orders.get", { id: "o1" }, { actor, context: {} });
    expect(ok).toMatchObject({ status: "completed", output: { id: "o1", by: "dana" } });
    const pending = await runtime.invoke("orders.refund", { id: "o1", amount: 5 }, { actor, context: {}, surface: "aiSdk" });
    expect(pending.status).toBe("approval-required");
    if (pending.status !== "approval-required") return;
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: { id: "priya", kind: "user" } });
    const done = await runtime.resume(pending.approval.id, { context: {} });
    expect(done).toMatchObject({ status: "completed", output: { refunded: 5 } });
    const again = await runtime.resume(pending.approval.id, { context: {} });
    expect(again.status === "failed" && again.error.code).toBe("APPROVAL_CONSUMED");
    const denied = await runtime.invoke("orders.get", { id: "o1" }, { actor: { id: "mallory", kind: "user" }, context: {} });
    expect(denied.status === "failed" && denied.error.code).toBe("POLICY_DENIED");
    expect(events.map((e) => e.type)).toContain("capability.approved");
    const tools = await runtime.describe("aiSdk", { actor, context: {} });
    expect(tools.map((t) => [t.id, t.requiresApproval])).toEqual([["orders.get", undefined], ["orders.refund", true]]);
  });
});
