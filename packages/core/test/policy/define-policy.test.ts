import { describe, expect, it } from "vitest";
import { allow } from "../../src/policy/decisions.js";
import { definePolicy } from "../../src/policy/define-policy.js";

const evaluate = () => allow();

describe("definePolicy", () => {
  it("returns a frozen policy with name, evaluate and the default invocation phase", () => {
    const policy = definePolicy("p", evaluate);

    expect(policy.name).toBe("p");
    expect(policy.evaluate).toBe(evaluate);
    expect(policy.phases).toEqual(["invocation"]);
    expect("scope" in policy).toBe(false);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.phases)).toBe(true);
  });

  it("keeps the given phases, deduplicated in first-appearance order", () => {
    const policy = definePolicy("p", evaluate, { phases: ["execution", "discovery", "execution"] });

    expect(policy.phases).toEqual(["execution", "discovery"]);
    expect(Object.isFrozen(policy.phases)).toBe(true);
  });

  it("does not share or freeze the caller's phases array", () => {
    const phases: ("discovery" | "invocation")[] = ["discovery", "invocation"];
    const policy = definePolicy("p", evaluate, { phases });

    phases.push("invocation");
    expect(policy.phases).toEqual(["discovery", "invocation"]);
    expect(Object.isFrozen(phases)).toBe(false);
  });

  it("stores the scope normalized and frozen", () => {
    const policy = definePolicy("p", evaluate, {
      scope: { capabilities: { ids: ["b", "a", "b"], risks: ["high", "low"] }, surfaces: ["mcp", "aiSdk"] },
    });

    expect(policy.scope).toEqual({ capabilities: { ids: ["a", "b"], risks: ["low", "high"] }, surfaces: ["aiSdk", "mcp"] });
    expect(Object.isFrozen(policy.scope)).toBe(true);
    expect(Object.isFrozen(policy.scope?.capabilities)).toBe(true);
  });

  it.each([
    ["an empty name", "", evaluate],
    ["a non-string name", 42, evaluate],
    ["a missing evaluate", "p", undefined],
    ["a non-function evaluate", "p", { evaluate }],
  ])("throws a TypeError for %s", (_label, name, fn) => {
    expect(() => definePolicy(name as string, fn as never)).toThrow(TypeError);
  });

  it.each([
    ["empty phases", { phases: [] }],
    ["phases that are not an array", { phases: "invocation" }],
    ["an unknown phase", { phases: ["invocation", "startup"] }],
    ["options that are not an object", "invocation"],
    ["an unknown option key", { phase: ["discovery"] }],
    ["an invalid scope", { scope: { capabilities: { ids: [""] } } }],
  ])("throws a TypeError for %s", (_label, options) => {
    expect(() => definePolicy("p", evaluate, options as never)).toThrow(TypeError);
  });

  it("names the policy in a scope error", () => {
    expect(() => definePolicy("refund-limit", evaluate, { scope: { capabilities: { tags: [1] } } as never })).toThrow(
      /refund-limit/,
    );
  });
});
