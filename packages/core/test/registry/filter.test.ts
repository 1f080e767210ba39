import { describe, expect, it } from "vitest";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import { plainProcedure, procedureWith, validAgent } from "./fixtures.js";

const registry = createCapabilityRegistry({
  orders: {
    list: procedureWith({ ...validAgent, expose: { aiSdk: true, mcp: true }, tags: ["orders"], sideEffect: "read", risk: "low" }),
    refund: procedureWith({ ...validAgent, expose: { aiSdk: true }, tags: ["orders", "billing"], sideEffect: "write", risk: "high" }),
    purge: procedureWith({ ...validAgent, expose: { direct: true }, tags: ["admin"], sideEffect: "destructive", risk: "critical" }),
  },
  ping: procedureWith({ ...validAgent, expose: { mcp: true, aiSdk: false }, sideEffect: "none", risk: "low" }),
  internal: plainProcedure(),
});

describe("registry.filter", () => {
  it("surface keeps only capabilities with expose[surface] === true", () => {
    expect(registry.filter({ surface: "aiSdk" }).ids()).toEqual(["orders.list", "orders.refund"]);
    expect(registry.filter({ surface: "mcp" }).ids()).toEqual(["orders.list", "ping"]);
    expect(registry.filter({ surface: "workflow" }).ids()).toEqual([]);
  });

  it("tags match any-of, and untagged capabilities match no tags", () => {
    expect(registry.filter({ tags: ["billing", "admin"] }).ids()).toEqual(["orders.refund", "orders.purge"]);
    expect(registry.filter({ tags: ["orders"] }).ids()).toEqual(["orders.list", "orders.refund"]);
    expect(registry.filter({ tags: ["nope"] }).ids()).toEqual([]);
    expect(registry.filter({ tags: [""] }).ids()).not.toContain("ping");
  });

  it("sideEffect and risk match any-of", () => {
    expect(registry.filter({ sideEffect: ["write", "destructive"] }).ids()).toEqual(["orders.refund", "orders.purge"]);
    expect(registry.filter({ risk: ["low"] }).ids()).toEqual(["orders.list", "ping"]);
  });

  it("fields combine with AND", () => {
    expect(registry.filter({ surface: "aiSdk", tags: ["orders"], risk: ["high", "critical"] }).ids()).toEqual(["orders.refund"]);
    expect(registry.filter({ surface: "mcp", sideEffect: ["write"] }).ids()).toEqual([]);
  });

  it("an empty query keeps everything and a present empty array keeps nothing", () => {
    expect(registry.filter({}).ids()).toEqual(registry.ids());
    expect(registry.filter({ tags: [] }).ids()).toEqual([]);
    expect(registry.filter({ sideEffect: [] }).ids()).toEqual([]);
  });

  it("accepts a predicate over capabilities", () => {
    expect(registry.filter((c) => c.id.startsWith("orders.") && c.meta.risk !== "critical").ids()).toEqual([
      "orders.list",
      "orders.refund",
    ]);
  });

  it("returns a new registry in registry order, keeps excluded, and leaves the original untouched", () => {
    const narrowed = registry.filter({ risk: ["low", "critical"] });
    expect(narrowed).not.toBe(registry);
    expect(narrowed.ids()).toEqual(["orders.list", "orders.purge", "ping"]);
    expect(narrowed.inspect().excluded).toEqual([{ path: "internal", reason: "no-agent-meta" }]);
    expect(narrowed.get("orders.refund")).toBeUndefined();
    expect(narrowed.get("orders.list")).toBe(registry.get("orders.list"));
    expect(registry.ids()).toEqual(["orders.list", "orders.refund", "orders.purge", "ping"]);
    expect(Object.isFrozen(narrowed)).toBe(true);
  });

  it("filters compose", () => {
    expect(registry.filter({ surface: "aiSdk" }).filter({ sideEffect: ["read"] }).ids()).toEqual(["orders.list"]);
  });

  it("inspect().unexposed of a filtered registry lists only its own capabilities", () => {
    const withHidden = createCapabilityRegistry({
      a: procedureWith({ ...validAgent, expose: {}, tags: ["x"] }),
      b: procedureWith({ ...validAgent, expose: {} }),
    });
    expect(withHidden.filter({ tags: ["x"] }).inspect().unexposed).toEqual(["a"]);
  });

  it.each([
    ["a misspelt key", { sideEffects: ["write"] }],
    ["a non-array list", { tags: "orders" }],
    ["a non-string tag", { tags: [1] }],
    ["an unknown surface", { surface: "cli" }],
    ["an unknown side effect", { sideEffect: ["delete"] }],
    ["an unknown risk", { risk: ["extreme"] }],
    ["null", null],
    ["a string", "aiSdk"],
  ])("throws TypeError for %s instead of matching everything", (_label, query) => {
    expect(() => registry.filter(query as never)).toThrow(TypeError);
  });
});
