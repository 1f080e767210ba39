// Raised from the mutation run: the startup warnings (docs/architecture/spec/core.md#core-5) name the ids in the message itself, and W2
// reads a capability's own meta.policies by phase.
import { os } from "@orpc/server";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { agentMeta, agentProcedure, allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, type AgentMeta } from "../../../src/index.js";

const base = agentProcedure(os);
const cap = (extra: Partial<AgentMeta> = {}) =>
  base.meta(agentMeta({ description: "A capability.", expose: { aiSdk: true }, sideEffect: "write", risk: "low", ...extra })).handler(() => "ok");

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});
const warnings = () => warn.mock.calls.map((args) => String(args[0]));

describe("startup warnings name their ids", () => {
  it("puts the ids where the message names them, with no leftover placeholder", () => {
    const registry = createCapabilityRegistry({ a: cap({ approval: { required: true } }), b: cap({ approval: { required: true } }), c: cap({ approval: { required: true } }) });
    createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
    const [w1] = warnings();
    expect(w1).toMatch(/^\[orpc-agent\] approvals are required by a, b, c, but no approvals\.coordinator/);
    expect(w1).not.toContain("%s");
  });

  it("counts the ids past the third as (+N more)", () => {
    const registry = createCapabilityRegistry({ a: cap(), b: cap(), c: cap(), d: cap(), e: cap() });
    createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { handler: async () => undefined } });
    expect(warnings()).toEqual([expect.stringContaining("yet models can reach the writes a, b, c (+2 more): nothing will record")]);
  });
});

describe("W2 and a capability's own policies", () => {
  const w2 = () => warnings().filter((w) => w.includes("policies may require approval"));

  it("fires for an execution-only meta policy", () => {
    const registry = createCapabilityRegistry({ pay: cap({ policies: [definePolicy("late", () => allow(), { phases: ["execution"] })] }) });
    createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
    expect(w2()).toEqual([expect.stringContaining("for the writes pay, but no approvals.coordinator")]);
  });

  it("stays quiet for a discovery-only meta policy", () => {
    const registry = createCapabilityRegistry({ pay: cap({ policies: [definePolicy("listing", () => allow(), { phases: ["discovery"] })] }) });
    createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
    expect(w2()).toEqual([]);
  });
});
