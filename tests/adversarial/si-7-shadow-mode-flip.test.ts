// SI-7 for shadow policies (ADR-028): which policies are enforced is decided once, when the governance is defined,
// and is what its manifest says. A hand-built policy object whose `mode` is changed afterwards, or answers
// differently on each read, must not slip out of enforcement while the manifest still lists it as enforced.
import { createCapabilityRegistry, createAgentRuntime, createInMemoryApprovalCoordinator, defineGovernance, deny, type AgentPolicy } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { base, dana, errorOf, meta } from "./support/runtime.js";

function setup(policy: AgentPolicy, where: "governance" | "capability") {
  const ran = { count: 0 };
  const op = base.meta({ agent: meta(where === "capability" ? { policies: [policy] } : {}) }).handler(() => (ran.count++, "done"));
  const governance = defineGovernance({ registry: createCapabilityRegistry({ op }), policies: where === "governance" ? [policy] : [] });
  return { governance, ran };
}

describe("a policy's mode is read once (SI-7)", () => {
  for (const where of ["governance", "capability"] as const) {
    it(`SI-7: a ${where}-level hand-built policy switched to mode "shadow" after defineGovernance stays enforced`, async () => {
      const policy: { name: string; phases: ["invocation"]; evaluate: AgentPolicy["evaluate"]; mode?: "shadow" } = {
        name: "no-ops",
        phases: ["invocation"],
        evaluate: () => deny("no", "Denied."),
      };
      const { governance, ran } = setup(policy as AgentPolicy, where);
      policy.mode = "shadow";
      const runtime = createAgentRuntime({ governance, audit: () => {}, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
      expect(errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} })).code).toBe("POLICY_DENIED");
      expect(ran.count).toBe(0);
    });

    it(`SI-7: a ${where}-level policy whose mode getter answers differently on every read is enforced exactly when governance lists it so`, async () => {
      let reads = 0;
      const policy = {
        name: "no-ops",
        phases: ["invocation"],
        evaluate: () => deny("no", "Denied."),
        get mode() {
          return ++reads % 2 === 1 ? undefined : "shadow";
        },
      } as unknown as AgentPolicy;
      const { governance, ran } = setup(policy, where);
      const runtime = createAgentRuntime({ governance, audit: () => {}, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
      const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
      const first = await runtime.invoke("op", undefined, { actor: dana, context: {} });
      // Stable across calls, whatever the getter now says.
      expect(first.status).toBe(result.status);
      if (where === "governance") {
        const listedShadow = governance.shadowPolicies.some((p) => p.name === "no-ops");
        expect(governance.manifest.find((e) => e.name === "no-ops")?.mode === "shadow").toBe(listedShadow);
        expect(result.status).toBe(listedShadow ? "completed" : "failed");
      }
      expect(ran.count).toBe(result.status === "completed" ? 2 : 0);
    });
  }
});
