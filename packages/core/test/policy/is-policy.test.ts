import { describe, expect, it } from "vitest";
import { allow } from "../../src/policy/decisions.js";
import { definePolicy } from "../../src/policy/define-policy.js";
import { isAgentPolicy } from "../../src/policy/is-policy.js";

describe("isAgentPolicy", () => {
  it("accepts definePolicy results and structurally equal objects", () => {
    expect(isAgentPolicy(definePolicy("p", () => allow()))).toBe(true);
    expect(isAgentPolicy({ name: "p", phases: [], evaluate: () => allow() })).toBe(true);
  });

  it.each([
    ["null", null],
    ["a function", () => allow()],
    ["a missing name", { phases: [], evaluate: () => allow() }],
    ["phases that are not an array", { name: "p", phases: "invocation", evaluate: () => allow() }],
    ["a missing evaluate", { name: "p", phases: [] }],
  ])("rejects %s", (_label, value) => {
    expect(isAgentPolicy(value)).toBe(false);
  });
});
