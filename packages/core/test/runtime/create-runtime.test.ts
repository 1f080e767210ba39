import { os } from "@orpc/server";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  requireApproval,
  type AgentMeta,
  type AgentRuntimeOptions,
} from "../../src/index.js";
import { registerSchemaConverter } from "../../src/schema/index.js";

const base = agentProcedure(os);
const cap = (extra: Partial<AgentMeta> = {}) =>
  base.meta(agentMeta({ description: "A capability.", expose: { aiSdk: true }, sideEffect: "read", risk: "low", ...extra })).handler(() => "ok");

const readOnly = () => createCapabilityRegistry({ a: cap(), b: cap({ expose: { mcp: true } }) });

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const warnings = () => warn.mock.calls.map((args) => String(args[0]));
const warningsMatching = (re: RegExp) => warnings().filter((w) => re.test(w));
// Each warning kind names its subject in its own words; these patterns tell them apart.
const W1 = /approvals are required/;
const W2 = /policies may require approval/;
const W3 = /no audit sink/;
const W4 = /kept by a persistent coordinator without approvals\.seal/;

describe("createAgentRuntime options (core.md §5)", () => {
  it.each([
    ["no options", undefined],
    ["options without governance", {}],
    ["a registry instead of a governance", { governance: readOnly() }],
    ["a registry option", { registry: readOnly(), policies: [] }],
    ["governance null", { governance: null }],
    ["a governance without policies", { governance: { registry: readOnly() } }],
    ["a governance whose registry lacks get", { governance: { registry: {}, policies: [], manifest: [] } }],
  ])("%s → TypeError naming defineGovernance({ registry, policies })", (_label, options) => {
    let caught: unknown;
    try {
      createAgentRuntime(options as unknown as AgentRuntimeOptions);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as Error).message).toContain("defineGovernance({ registry, policies })");
  });

  it.each([
    ["timeoutMs", 0],
    ["timeoutMs", -5],
    ["timeoutMs", Number.NaN],
    ["timeoutMs", Number.POSITIVE_INFINITY],
    ["timeoutMs", "1000"],
    ["policyTimeoutMs", 0],
    ["discoveryBudgetMs", -1],
    ["approvalExpiresInMs", Number.POSITIVE_INFINITY],
    ["policyConcurrency", 0],
    ["policyConcurrency", 1.5],
    ["policyConcurrency", "4"],
  ])("defaults.%s = %s → TypeError", (key, value) => {
    const governance = defineGovernance({ registry: readOnly() });
    expect(() => createAgentRuntime({ governance, defaults: { [key]: value } as never })).toThrow(TypeError);
  });

  it("accepts valid defaults, including fractional timeouts", () => {
    const governance = defineGovernance({ registry: readOnly() });
    expect(() =>
      createAgentRuntime({ governance, defaults: { timeoutMs: 0.5, policyTimeoutMs: 10, policyConcurrency: 1, discoveryBudgetMs: 100, approvalExpiresInMs: 60_000 } }),
    ).not.toThrow();
  });

  it("exposes the same governance and runtime.registry === governance.registry", () => {
    const governance = defineGovernance({ registry: readOnly() });
    const runtime = createAgentRuntime({ governance });
    expect(runtime.governance).toBe(governance);
    expect(runtime.registry).toBe(governance.registry);
    expect(typeof runtime.drainAudit).toBe("function");
  });

  it("re-verifies schema convertibility of model-exposed capabilities at creation and names the capability", () => {
    const vendor = "create-runtime-test-vendor";
    const schema: StandardSchemaV1 = { "~standard": { version: 1, vendor, validate: (value) => ({ value }) } };
    registerSchemaConverter(vendor, () => ({ type: "object" }));
    const registry = createCapabilityRegistry({
      tools: { search: base.input(schema).meta(agentMeta({ description: "Search.", expose: { mcp: true }, sideEffect: "read", risk: "low" })).handler(() => "ok") },
      internal: base.input(schema).meta(agentMeta({ description: "Internal.", expose: { direct: true }, sideEffect: "read", risk: "low" })).handler(() => "ok"),
    });
    const governance = defineGovernance({ registry });
    expect(() => createAgentRuntime({ governance })).not.toThrow();

    registerSchemaConverter(vendor, () => {
      throw new Error("converter lost its mind");
    });
    let caught: unknown;
    try {
      createAgentRuntime({ governance });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).not.toBeInstanceOf(TypeError);
    expect((caught as Error).message).toContain("tools.search");
    expect((caught as Error).message).not.toContain("internal");
    registerSchemaConverter(vendor, () => ({ type: "object" }));
  });
});

describe("startup warnings (core.md §5)", () => {
  const gated = () => createCapabilityRegistry({ refund: cap({ sideEffect: "write", approval: { required: true } }) });

  it("W1: approval.required without coordinator or handler warns once with the [orpc-agent] prefix, naming the id", () => {
    createAgentRuntime({ governance: defineGovernance({ registry: gated() }), audit: () => {} });
    const w1 = warningsMatching(W1);
    expect(w1).toHaveLength(1);
    expect(w1[0]).toMatch(/^\[orpc-agent\] /);
    expect(w1[0]).toContain("refund");
    expect(w1[0]).toContain("createInMemoryApprovalCoordinator()");
  });

  it("W1 is silenced by naming a coordinator, the in-memory one included, or by a handler", () => {
    createAgentRuntime({ governance: defineGovernance({ registry: gated() }), audit: () => {}, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    createAgentRuntime({ governance: defineGovernance({ registry: gated() }), audit: () => {}, approvals: { handler: async () => undefined } });
    expect(warningsMatching(W1)).toEqual([]);
    expect(warningsMatching(W2)).toEqual([]);
  });

  it("W1 does not fire without approval-gated capabilities", () => {
    createAgentRuntime({ governance: defineGovernance({ registry: readOnly() }) });
    expect(warnings()).toEqual([]);
  });

  const policyGated = () => {
    const registry = createCapabilityRegistry({ pay: cap({ sideEffect: "write" }), read: cap() });
    return defineGovernance({ registry, policies: [definePolicy("big-payments", () => requireApproval({ reason: "Large." }), { phases: ["invocation"] })] });
  };

  it("W2: a model-exposed write that is a candidate of an invocation policy warns when no coordinator or handler is set", () => {
    createAgentRuntime({ governance: policyGated(), audit: () => {} });
    const w2 = warningsMatching(W2);
    expect(w2).toHaveLength(1);
    expect(w2[0]).toMatch(/^\[orpc-agent\] /);
    expect(w2[0]).toContain("pay");
    expect(w2[0]).not.toContain("read");
  });

  it("W2 counts execution-phase policies and a capability's own meta.policies", () => {
    const execution = createCapabilityRegistry({ pay: cap({ sideEffect: "external" }) });
    createAgentRuntime({
      governance: defineGovernance({ registry: execution, policies: [definePolicy("p", () => requireApproval({ reason: "r" }), { phases: ["execution"] })] }),
      audit: () => {},
    });
    const own = createCapabilityRegistry({ wipe: cap({ sideEffect: "destructive", policies: [definePolicy("own", () => requireApproval({ reason: "r" }))] }) });
    createAgentRuntime({ governance: defineGovernance({ registry: own }), audit: () => {} });
    const w2 = warningsMatching(W2);
    expect(w2).toHaveLength(2);
    expect(w2[0]).toContain("pay");
    expect(w2[1]).toContain("wipe");
  });

  it("W2 stays quiet for discovery-only policies, scoped-out writes, writes not on a model surface, and when approvals are configured", () => {
    const registry = createCapabilityRegistry({ pay: cap({ sideEffect: "write" }), local: cap({ sideEffect: "write", expose: { direct: true } }), read: cap({ tags: ["r"] }) });
    createAgentRuntime({ governance: defineGovernance({ registry, policies: [definePolicy("d", () => requireApproval({ reason: "r" }), { phases: ["discovery"] })] }), audit: () => {} });
    createAgentRuntime({
      governance: defineGovernance({ registry, policies: [definePolicy("only-reads", () => requireApproval({ reason: "r" }), { scope: { capabilities: { tags: ["r"] } } })] }),
      audit: () => {},
    });
    const localOnly = createCapabilityRegistry({ local: cap({ sideEffect: "write", expose: { direct: true } }) });
    createAgentRuntime({ governance: defineGovernance({ registry: localOnly, policies: [definePolicy("p", () => requireApproval({ reason: "r" }))] }), audit: () => {} });
    createAgentRuntime({ governance: policyGated(), audit: () => {}, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    expect(warningsMatching(W2)).toEqual([]);
  });

  it("W2 does not fire when W1 already fired", () => {
    const registry = createCapabilityRegistry({ refund: cap({ sideEffect: "write", approval: { required: true } }), pay: cap({ sideEffect: "write" }) });
    createAgentRuntime({ governance: defineGovernance({ registry, policies: [definePolicy("p", () => requireApproval({ reason: "r" }))] }), audit: () => {} });
    expect(warningsMatching(W1)).toHaveLength(1);
    expect(warningsMatching(W2)).toEqual([]);
  });

  it("W3: no sink with a model-exposed write warns; audit: [] and { sinks: [] } still warn", () => {
    const writes = () => createCapabilityRegistry({ pay: cap({ sideEffect: "write" }) });
    createAgentRuntime({ governance: defineGovernance({ registry: writes() }) });
    createAgentRuntime({ governance: defineGovernance({ registry: writes() }), audit: [] });
    createAgentRuntime({ governance: defineGovernance({ registry: writes() }), audit: { sinks: [] } });
    const w3 = warningsMatching(W3);
    expect(w3).toHaveLength(3);
    for (const w of w3) {
      expect(w).toMatch(/^\[orpc-agent\] /);
      expect(w).toContain("pay");
      expect(w).toContain("audit: () => {}");
    }
  });

  it("W3 is silenced by any sink, audit: () => {} included, and never fires for reads or non-model writes", () => {
    const writes = () => createCapabilityRegistry({ pay: cap({ sideEffect: "write" }) });
    createAgentRuntime({ governance: defineGovernance({ registry: writes() }), audit: () => {} });
    createAgentRuntime({ governance: defineGovernance({ registry: writes() }), audit: [() => {}] });
    createAgentRuntime({ governance: defineGovernance({ registry: writes() }), audit: { sinks: [() => {}] } });
    createAgentRuntime({ governance: defineGovernance({ registry: readOnly() }) });
    createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ local: cap({ sideEffect: "write", expose: { direct: true, workflow: true } }) }) }) });
    expect(warningsMatching(W3)).toEqual([]);
  });

  // Any coordinator the in-memory factory did not make keeps its records where others may write them (issue 29).
  const persistent = () => ({ ...createInMemoryApprovalCoordinator() });
  const seal = { keys: [{ id: "k1", secret: "a-test-only-seal-secret-of-32-bytes-or-more" }] };

  it("W4: a persistent coordinator without approvals.seal warns once, naming the gated and write ids and how to seal or opt out", () => {
    const registry = createCapabilityRegistry({ refund: cap({ sideEffect: "write", approval: { required: true } }), read: cap() });
    createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {}, approvals: { coordinator: persistent() } });
    const w4 = warningsMatching(W4);
    expect(w4).toHaveLength(1);
    expect(w4[0]).toMatch(/^\[orpc-agent\] /);
    expect(w4[0]).toContain("refund");
    expect(w4[0]).not.toContain("read");
    expect(w4[0]).toContain("approvals: { seal: { keys: [{ id, secret }] } }");
    expect(w4[0]).toContain("seal: false");
  });

  it("W4 is silenced by seal keys or seal: false, and never fires for the in-memory coordinator, a handler alone, or reads only", () => {
    const gatedGovernance = () => defineGovernance({ registry: gated() });
    createAgentRuntime({ governance: gatedGovernance(), audit: () => {}, approvals: { coordinator: persistent(), seal } });
    createAgentRuntime({ governance: gatedGovernance(), audit: () => {}, approvals: { coordinator: persistent(), seal: false } });
    createAgentRuntime({ governance: gatedGovernance(), audit: () => {}, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    createAgentRuntime({ governance: gatedGovernance(), audit: () => {}, approvals: { handler: async () => undefined } });
    createAgentRuntime({ governance: defineGovernance({ registry: readOnly() }), approvals: { coordinator: persistent() } });
    expect(warningsMatching(W4)).toEqual([]);
  });

  it("a warning names at most 3 ids, then (+N more)", () => {
    const registry = createCapabilityRegistry({
      w1: cap({ sideEffect: "write" }),
      w2: cap({ sideEffect: "write" }),
      w3: cap({ sideEffect: "write" }),
      w4: cap({ sideEffect: "write" }),
      w5: cap({ sideEffect: "write" }),
    });
    createAgentRuntime({ governance: defineGovernance({ registry }) });
    const [w3] = warningsMatching(W3);
    expect(w3).toContain("w1, w2, w3 (+2 more)");
    expect(w3).not.toContain("w4");
    expect(w3).not.toContain("w5");
  });

  it("exactly three ids get no (+N more) suffix", () => {
    const registry = createCapabilityRegistry({ x: cap({ sideEffect: "write" }), y: cap({ sideEffect: "write" }), z: cap({ sideEffect: "write" }) });
    createAgentRuntime({ governance: defineGovernance({ registry }) });
    const [w3] = warningsMatching(W3);
    expect(w3).toContain("x, y, z");
    expect(w3).not.toMatch(/\+\d+ more/);
  });

  it("each warning kind fires at most once per governance object, and again for a new governance", () => {
    const registry = createCapabilityRegistry({ refund: cap({ sideEffect: "write", approval: { required: true } }) });
    const governance = defineGovernance({ registry });
    createAgentRuntime({ governance });
    createAgentRuntime({ governance });
    createAgentRuntime({ governance, defaults: { timeoutMs: 5 } });
    expect(warningsMatching(W1)).toHaveLength(1);
    expect(warningsMatching(W3)).toHaveLength(1);
    createAgentRuntime({ governance: defineGovernance({ registry }) });
    expect(warningsMatching(W1)).toHaveLength(2);
    expect(warningsMatching(W3)).toHaveLength(2);
  });

  it("warnings are never fatal", () => {
    const registry = createCapabilityRegistry({ refund: cap({ sideEffect: "write", approval: { required: true } }) });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });
    expect(runtime.registry.ids()).toEqual(["refund"]);
    expect(warn).toHaveBeenCalled();
  });
});
