import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { approvalDefinition, wideningSince } from "../../../src/runtime/approvals/definition.js";
import { agentMeta, agentProcedure, createCapabilityRegistry, defineGovernance } from "../../../src/index.js";
import { buildCapabilityPlan } from "../../../src/runtime/plan.js";

function planOf(agent: Record<string, unknown>) {
  const procedure = agentProcedure(os).meta(agentMeta({ description: "Pay.", expose: { direct: true }, sideEffect: "write", risk: "high", ...agent } as never)).handler(() => "ok");
  const governance = defineGovernance({ registry: createCapabilityRegistry({ pay: procedure }) });
  return buildCapabilityPlan(governance.registry.capabilities()[0]!, [], 30_000);
}

describe("approval definitions (issue 29)", () => {
  it("records the governance entry without the description, and a digest of it", async () => {
    const { definition, digest } = await approvalDefinition(planOf({}), "direct");
    expect(definition.capability).toMatchObject({ id: "pay", sideEffect: "write", risk: "high", expose: ["direct"], inputSchemaHash: null });
    expect(definition.capability).not.toHaveProperty("description");
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("the same digest means no change; a lost approval gate is widening, a raised risk is not", async () => {
    const gated = await approvalDefinition(planOf({ approval: { required: true } }), "direct");
    const record = { definition: gated.definition, definitionDigest: gated.digest };
    expect(await wideningSince(record, gated)).toEqual([]);
    const ungated = await approvalDefinition(planOf({}), "direct");
    expect((await wideningSince(record, ungated)).map((c) => c.field)).toEqual(["approval"]);
    const riskier = await approvalDefinition(planOf({ approval: { required: true }, risk: "critical" }), "direct");
    expect(await wideningSince(record, riskier)).toEqual([]);
  });

  it("SI-5: a stored definition edited to match today's governance does not hide a widening: it no longer hashes to the digest", async () => {
    const gated = await approvalDefinition(planOf({ approval: { required: true } }), "direct");
    const ungated = await approvalDefinition(planOf({}), "direct");
    const edited = { definition: ungated.definition, definitionDigest: gated.digest };
    expect((await wideningSince(edited, ungated)).map((c) => c.field)).toEqual(["definition"]);
    expect((await wideningSince({ definition: "junk", definitionDigest: gated.digest }, ungated)).map((c) => c.field)).toEqual(["definition"]);
  });
});
