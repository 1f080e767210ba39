import { describe, expect, it } from "vitest";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import { buildProblems, procedureWith, validAgent } from "./fixtures.js";

const on = (expose: Record<string, boolean>, adapters?: unknown) => procedureWith({ ...validAgent, expose, ...(adapters ? { adapters } : {}) });

describe("tool-name collisions (core.md §2.1)", () => {
  it("default names colliding on a surface are a problem naming both capabilities", () => {
    expect(buildProblems({ orders: { refund: on({ aiSdk: true }) }, orders_refund: on({ aiSdk: true }) })).toEqual([
      'orders_refund: aiSdk tool name "orders_refund" collides with capability orders.refund; set meta.adapters.aiSdk.toolName on one of them',
    ]);
  });

  it("collisions are reported per surface", () => {
    expect(buildProblems({ a: { b: on({ aiSdk: true, mcp: true }) }, a_b: on({ aiSdk: true, mcp: true }) })).toEqual([
      'a_b: aiSdk tool name "a_b" collides with capability a.b; set meta.adapters.aiSdk.toolName on one of them',
      'a_b: mcp tool name "a_b" collides with capability a.b; set meta.adapters.mcp.toolName on one of them',
    ]);
  });

  it("a toolName override colliding with another capability's default name is a problem", () => {
    expect(buildProblems({ orders: { refund: on({ mcp: true }) }, refundOrder: on({ mcp: true }, { mcp: { toolName: "orders_refund" } }) })).toEqual([
      'refundOrder: mcp tool name "orders_refund" collides with capability orders.refund; set meta.adapters.mcp.toolName on one of them',
    ]);
  });

  it("two equal toolName overrides collide", () => {
    expect(
      buildProblems({ a: on({ aiSdk: true }, { aiSdk: { toolName: "refund" } }), b: on({ aiSdk: true }, { aiSdk: { toolName: "refund" } }) }),
    ).toEqual(['b: aiSdk tool name "refund" collides with capability a; set meta.adapters.aiSdk.toolName on one of them']);
  });

  it("a toolName override resolves a default-name collision", () => {
    const registry = createCapabilityRegistry({
      orders: { refund: on({ aiSdk: true }) },
      orders_refund: on({ aiSdk: true }, { aiSdk: { toolName: "legacy_refund" } }),
    });
    expect(registry.ids()).toEqual(["orders.refund", "orders_refund"]);
  });

  it("an override for one surface does not rename the other", () => {
    expect(buildProblems({ a: { b: on({ mcp: true }) }, a_b: on({ mcp: true }, { aiSdk: { toolName: "other" } }) })).toEqual([
      'a_b: mcp tool name "a_b" collides with capability a.b; set meta.adapters.mcp.toolName on one of them',
    ]);
  });

  it("unexposed surfaces never collide", () => {
    const registry = createCapabilityRegistry({
      a: { b: on({ aiSdk: true, mcp: false }) },
      a_b: on({ mcp: true }),
      x: on({ direct: true, workflow: true, test: true }, { aiSdk: { toolName: "a_b" } }),
      y: on({}, { mcp: { toolName: "a_b" } }),
    });
    expect(registry.ids()).toEqual(["a.b", "a_b", "x", "y"]);
  });

  it("non-model surfaces never collide", () => {
    expect(createCapabilityRegistry({ a: { b: on({ direct: true }) }, a_b: on({ direct: true, workflow: true }) }).ids()).toEqual([
      "a.b",
      "a_b",
    ]);
  });
});
