import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { buildProblems, procedureWith, validAgent } from "../registry/fixtures.js";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import { agentMeta, agentProcedure, defineGovernance } from "../../src/index.js";
import { approvalDefinition } from "../../src/runtime/approvals/definition.js";
import { buildCapabilityPlan } from "../../src/runtime/plan.js";

const STEPS = [
  { afterMs: 900_000, to: ["team-lead"] },
  { afterMs: 1_800_000, to: ["head-of-support", "#approvals"] },
];
const withEscalate = (escalate: unknown) => ({ orders: { refund: procedureWith({ ...validAgent, approval: { required: true, escalate } }) } });

describe("meta.approval.escalate validation", () => {
  it("accepts increasing steps and keeps them frozen on the registry's meta", () => {
    const meta = createCapabilityRegistry(withEscalate(STEPS)).get("orders.refund")!.meta;
    expect(meta.approval?.escalate).toEqual(STEPS);
    expect(Object.isFrozen(meta.approval?.escalate)).toBe(true);
    expect(Object.isFrozen(meta.approval?.escalate?.[1]?.to)).toBe(true);
  });

  const eleven = Array.from({ length: 11 }, (_, i) => ({ afterMs: (i + 1) * 1000, to: ["ops"] }));
  const cases: [string, unknown, string[]][] = [
    ["not an array", { afterMs: 1, to: ["ops"] }, ["meta.approval.escalate must be a non-empty array of at most 10 steps { afterMs, to }, got an object"]],
    ["empty", [], ["meta.approval.escalate must be a non-empty array of at most 10 steps { afterMs, to }, got an array"]],
    ["more than 10 steps", eleven, ["meta.approval.escalate must be a non-empty array of at most 10 steps { afterMs, to }, got an array"]],
    ["a step not an object", ["ops"], ['meta.approval.escalate[0] must be a plain object { afterMs, to }, got "ops"']],
    ["afterMs zero", [{ afterMs: 0, to: ["ops"] }], ["meta.approval.escalate[0].afterMs must be a positive integer (milliseconds after the request), got 0"]],
    ["afterMs fractional", [{ afterMs: 1.5, to: ["ops"] }], ["meta.approval.escalate[0].afterMs must be a positive integer (milliseconds after the request), got 1.5"]],
    ["afterMs Infinity", [{ afterMs: Number.POSITIVE_INFINITY, to: ["ops"] }], ["meta.approval.escalate[0].afterMs must be a positive integer (milliseconds after the request), got Infinity"]],
    ["steps out of order", [STEPS[1], STEPS[0]], ["meta.approval.escalate[1].afterMs must be greater than the step before it (1800000), got 900000"]],
    ["steps at the same moment", [STEPS[0], { afterMs: 900_000, to: ["ops"] }], ["meta.approval.escalate[1].afterMs must be greater than the step before it (900000), got 900000"]],
    ["to empty", [{ afterMs: 1, to: [] }], ["meta.approval.escalate[0].to must be a non-empty array of non-blank strings (roles, channels: whatever your notifier routes), got an array"]],
    ["to a string", [{ afterMs: 1, to: "ops" }], ['meta.approval.escalate[0].to must be a non-empty array of non-blank strings (roles, channels: whatever your notifier routes), got "ops"']],
    ["to with a blank", [{ afterMs: 1, to: ["ops", " "] }], ["meta.approval.escalate[0].to must be a non-empty array of non-blank strings (roles, channels: whatever your notifier routes), got an array"]],
    ["an unknown field", [{ afterMs: 1, to: ["ops"], notify: ["x"] }], ["meta.approval.escalate[0].notify is not an escalation field (afterMs, to)"]],
  ];
  it.each(cases)("%s is a registry problem naming the capability and field", (_label, escalate, expected) => {
    expect(buildProblems(withEscalate(escalate))).toEqual(expected.map((message) => `orders.refund: ${message}`));
  });
});

describe("escalation and the approval definition", () => {
  function planOf(approval: Record<string, unknown>) {
    const procedure = agentProcedure(os)
      .meta(agentMeta({ description: "Pay.", expose: { direct: true }, sideEffect: "write", risk: "high", approval } as never))
      .handler(() => "ok");
    return buildCapabilityPlan(defineGovernance({ registry: createCapabilityRegistry({ pay: procedure }) }).registry.capabilities()[0]!, [], 30_000);
  }

  it("who is told widens nothing an agent may do: escalate is left out of the definition, so changing it voids no approval", async () => {
    const without = await approvalDefinition(planOf({ required: true }), "direct");
    const withSteps = await approvalDefinition(planOf({ required: true, escalate: STEPS }), "direct");
    expect(withSteps.digest).toBe(without.digest);
    expect(withSteps.definition.capability.approval).not.toHaveProperty("escalate");
  });
});
