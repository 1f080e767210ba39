import { describe, expect, it } from "vitest";
import type { AgentMeta, PolicyScope } from "../../src/capability/types.js";
import { normalizePolicyScope, policyScopeMatches } from "../../src/policy/scope.js";

function capability(id: string, meta: Partial<AgentMeta> = {}): { id: string; meta: AgentMeta } {
  return { id, meta: { description: id, expose: { mcp: true }, sideEffect: "read", risk: "low", tags: [], ...meta } };
}

describe("normalizePolicyScope", () => {
  it("sorts and deduplicates ids and tags", () => {
    const scope = normalizePolicyScope({ capabilities: { ids: ["orders.refund", "a.b", "orders.refund"], tags: ["z", "a", "z"] } });

    expect(scope.capabilities?.ids).toEqual(["a.b", "orders.refund"]);
    expect(scope.capabilities?.tags).toEqual(["a", "z"]);
  });

  it("puts enum lists in canonical order without duplicates", () => {
    const scope = normalizePolicyScope({
      capabilities: { sideEffects: ["external", "none", "write", "none"], risks: ["critical", "low", "critical"] },
      surfaces: ["test", "mcp", "direct", "mcp"],
    });

    expect(scope.capabilities?.sideEffects).toEqual(["none", "write", "external"]);
    expect(scope.capabilities?.risks).toEqual(["low", "critical"]);
    expect(scope.surfaces).toEqual(["direct", "mcp", "test"]);
  });

  it("keeps present empty arrays and empty objects, and drops undefined fields", () => {
    expect(normalizePolicyScope({ capabilities: { tags: [] }, surfaces: [] })).toEqual({ capabilities: { tags: [] }, surfaces: [] });
    expect(normalizePolicyScope({})).toEqual({});
    expect(normalizePolicyScope({ capabilities: {} })).toEqual({ capabilities: {} });
    const scope = normalizePolicyScope({ capabilities: { ids: undefined }, surfaces: undefined });
    expect(scope).toEqual({ capabilities: {} });
    expect("surfaces" in scope).toBe(false);
  });

  it("freezes every level and never freezes the caller's arrays", () => {
    const ids = ["b", "a"];
    const scope = normalizePolicyScope({ capabilities: { ids }, surfaces: ["mcp"] });

    expect(Object.isFrozen(scope)).toBe(true);
    expect(Object.isFrozen(scope.capabilities)).toBe(true);
    expect(Object.isFrozen(scope.capabilities?.ids)).toBe(true);
    expect(Object.isFrozen(scope.surfaces)).toBe(true);
    expect(Object.isFrozen(ids)).toBe(false);
    expect(ids).toEqual(["b", "a"]);
  });

  it("is idempotent", () => {
    const once = normalizePolicyScope({ capabilities: { tags: ["b", "a"], risks: ["high", "low"] }, surfaces: ["mcp", "aiSdk"] });

    expect(normalizePolicyScope(once)).toEqual(once);
  });

  it.each([
    ["a non-object scope", "mcp"],
    ["an array scope", []],
    ["null", null],
    ["an unknown top-level key", { capability: { ids: ["a"] } }],
    ["an unknown selector key", { capabilities: { id: ["a"] } }],
    ["capabilities that is not an object", { capabilities: ["a"] }],
    ["ids that is not an array", { capabilities: { ids: "a" } }],
    ["an empty id", { capabilities: { ids: ["a", ""] } }],
    ["a non-string id", { capabilities: { ids: [1] } }],
    ["an empty tag", { capabilities: { tags: [""] } }],
    ["a non-string tag", { capabilities: { tags: [null] } }],
    ["an invalid side effect", { capabilities: { sideEffects: ["delete"] } }],
    ["an invalid risk", { capabilities: { risks: ["extreme"] } }],
    ["an invalid surface", { surfaces: ["cli"] }],
    ["surfaces that is not an array", { surfaces: "mcp" }],
  ])("throws a TypeError for %s", (_label, scope) => {
    expect(() => normalizePolicyScope(scope)).toThrow(TypeError);
  });

  it("names the offending key in the error", () => {
    expect(() => normalizePolicyScope({ capabilities: { tag: ["a"] } })).toThrow(/"tag"/);
  });
});

describe("policyScopeMatches", () => {
  const refund = capability("orders.refund", { sideEffect: "write", risk: "high", tags: ["finance", "orders"] });
  const list = capability("orders.list", { sideEffect: "read", risk: "low", tags: ["orders"] });
  const untagged = capability("misc.ping", { sideEffect: "none", risk: "low", tags: [] });
  const noTagsKey = capability("misc.echo", { tags: undefined });
  const matches = (scope: PolicyScope | undefined, cap = refund, surface?: "mcp" | "aiSdk" | "direct") =>
    policyScopeMatches(scope === undefined ? undefined : normalizePolicyScope(scope), cap, surface);

  it("a missing scope, an empty scope and empty selectors match everything", () => {
    for (const scope of [undefined, {}, { capabilities: {} }]) {
      expect(matches(scope, refund, "mcp")).toBe(true);
      expect(matches(scope, untagged, "direct")).toBe(true);
    }
  });

  it("ANY within a field", () => {
    expect(matches({ capabilities: { ids: ["orders.list", "orders.refund"] } })).toBe(true);
    expect(matches({ capabilities: { tags: ["nope", "finance"] } })).toBe(true);
    expect(matches({ capabilities: { sideEffects: ["read", "write"] } })).toBe(true);
    expect(matches({ capabilities: { risks: ["medium", "high"] } })).toBe(true);
    expect(matches({ surfaces: ["aiSdk", "mcp"] }, refund, "mcp")).toBe(true);
  });

  it("AND across fields: every present field must match", () => {
    expect(matches({ capabilities: { tags: ["orders"], sideEffects: ["write"] } }, refund)).toBe(true);
    expect(matches({ capabilities: { tags: ["orders"], sideEffects: ["write"] } }, list)).toBe(false);
    expect(matches({ capabilities: { ids: ["orders.refund"], risks: ["low"] } }, refund)).toBe(false);
    expect(matches({ capabilities: { ids: ["orders.refund"] }, surfaces: ["aiSdk"] }, refund, "mcp")).toBe(false);
    expect(matches({ capabilities: { ids: ["orders.refund"] }, surfaces: ["mcp"] }, refund, "mcp")).toBe(true);
  });

  it("a present empty array matches nothing", () => {
    expect(matches({ capabilities: { ids: [] } })).toBe(false);
    expect(matches({ capabilities: { tags: [] } })).toBe(false);
    expect(matches({ capabilities: { sideEffects: [] } })).toBe(false);
    expect(matches({ capabilities: { risks: [] } })).toBe(false);
    expect(matches({ surfaces: [] }, refund, "mcp")).toBe(false);
  });

  it("an untagged capability never matches a tags selector", () => {
    expect(matches({ capabilities: { tags: ["orders"] } }, untagged)).toBe(false);
    expect(matches({ capabilities: { tags: ["orders"] } }, noTagsKey)).toBe(false);
    expect(matches({ capabilities: { sideEffects: ["none"] } }, untagged)).toBe(true);
  });

  it("ignores surfaces when no surface is given", () => {
    expect(matches({ surfaces: [] }, refund)).toBe(true);
    expect(matches({ surfaces: ["aiSdk"], capabilities: { ids: ["orders.refund"] } }, refund)).toBe(true);
    expect(matches({ surfaces: ["aiSdk"], capabilities: { ids: ["orders.list"] } }, refund)).toBe(false);
  });

  it("works on a scope that was never normalized", () => {
    const raw: PolicyScope = { capabilities: { tags: ["finance"] }, surfaces: ["mcp"] };

    expect(policyScopeMatches(raw, refund, "mcp")).toBe(true);
    expect(policyScopeMatches(raw, list, "mcp")).toBe(false);
  });
});
