// The testing helpers' types: one source of governance (registry or governance, never both), and the runtime's
// context type carried into invoke, describe and resume.
import { describe, expectTypeOf, it } from "vitest";
import type { AgentGovernance, CapabilityRegistry, ExecutionResult } from "@orpc-agent/core";
import { createAgentTestRuntime, fakeActor, type AgentTestRuntime } from "../../src/index.js";

declare const registry: CapabilityRegistry;
declare const governance: AgentGovernance;

describe("createAgentTestRuntime", () => {
  it("takes a registry (with policies) or a governance, never both and never neither", () => {
    expectTypeOf(createAgentTestRuntime({ registry, policies: [] })).toEqualTypeOf<AgentTestRuntime<Record<string, unknown>>>();
    expectTypeOf(createAgentTestRuntime({ governance })).toEqualTypeOf<AgentTestRuntime<Record<string, unknown>>>();
    // @ts-expect-error registry and governance are exclusive
    createAgentTestRuntime({ registry, governance });
    // @ts-expect-error policies go with a registry, not with a governance
    createAgentTestRuntime({ governance, policies: [] });
    // @ts-expect-error one of the two is required
    createAgentTestRuntime({ actor: fakeActor() });
  });

  it("carries the context type into every call", () => {
    const t = createAgentTestRuntime({ governance, context: { tenant: "t1" } });
    expectTypeOf(t).toEqualTypeOf<AgentTestRuntime<{ tenant: string }>>();
    // @ts-expect-error the context is the runtime's
    void t.invoke("orders.get", {}, { context: { other: 1 } });
    expectTypeOf(t.invoke<{ ok: true }>("orders.get", {})).resolves.toEqualTypeOf<ExecutionResult<{ ok: true }>>();
  });
});
