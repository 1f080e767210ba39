// Raised from the mutation run: policy definitions are refused at definition time with errors that say what is
// wrong and where (STYLE.md: errors tell the user what to do). docs/architecture/spec/core.md#core-3, ADR-018.
import { describe, expect, it } from "vitest";
import { allow, composePolicies, definePolicy, requireApproval, type AgentPolicy } from "../../../src/index.js";
import { normalizePolicyScope } from "../../../src/policy/scope.js";

const evaluate = () => allow();

describe("definePolicy errors", () => {
  it("names the broken argument", () => {
    expect(() => definePolicy("", evaluate)).toThrow("definePolicy(name, evaluate, options?): name must be a non-empty string.");
    expect(() => definePolicy("p", "allow" as never)).toThrow('definePolicy("p", evaluate): evaluate must be a function.');
  });

  it.each([
    ["null", null],
    ["an array", []],
    ["a string", "invocation"],
    ["a number", 7],
  ])("refuses %s as options", (_label, options) => {
    expect(() => definePolicy("p", evaluate, options as never)).toThrow('definePolicy("p"): options must be an object { phases?, scope?, mode? }.');
  });

  it("names an unknown option and the allowed ones", () => {
    expect(() => definePolicy("p", evaluate, { scopes: {} } as never)).toThrow('definePolicy("p"): unknown option "scopes"; allowed: phases, scope, mode.');
  });

  it("lists the valid phases when phases are empty or invalid", () => {
    expect(() => definePolicy("p", evaluate, { phases: [] })).toThrow(
      'definePolicy("p"): phases must be a non-empty array of discovery, invocation, execution.',
    );
    expect(() => definePolicy("p", evaluate, { phases: ["invoke"] as never })).toThrow(
      'definePolicy("p"): invalid phase "invoke"; allowed: discovery, invocation, execution.',
    );
  });

  it("prefixes scope errors with the policy name and the path of the field", () => {
    expect(() => definePolicy("refunds", evaluate, { scope: { capabilities: { ids: [""] } } })).toThrow(
      'Policy "refunds": scope.capabilities.ids must contain only non-empty strings; got "".',
    );
  });
});

describe("policy scope errors", () => {
  it("calls an unnamed scope 'Policy scope'", () => {
    expect(() => normalizePolicyScope("mcp")).toThrow("Policy scope must be an object.");
    expect(() => normalizePolicyScope({ capability: {} })).toThrow('Policy scope has unknown key "capability"; allowed keys: capabilities, surfaces, via.');
  });

  it.each([
    ["a string", "x"],
    ["null", null],
    ["an array", []],
  ])("refuses %s where an object is required, at both levels", (_label, value) => {
    expect(() => normalizePolicyScope(value, "p")).toThrow('Policy "p": scope must be an object.');
    expect(() => normalizePolicyScope({ capabilities: value }, "p")).toThrow('Policy "p": scope.capabilities must be an object.');
  });

  it("names the selector path and the allowed values", () => {
    expect(() => normalizePolicyScope({ capabilities: { ids: "a" } }, "p")).toThrow('Policy "p": scope.capabilities.ids must be an array of non-empty strings.');
    expect(() => normalizePolicyScope({ capabilities: { tags: [1] } }, "p")).toThrow('Policy "p": scope.capabilities.tags must contain only non-empty strings; got 1.');
    expect(() => normalizePolicyScope({ capabilities: { sideEffects: "write" } }, "p")).toThrow(
      'Policy "p": scope.capabilities.sideEffects must be an array; allowed values: none, read, write, destructive, external.',
    );
    expect(() => normalizePolicyScope({ capabilities: { sideEffects: ["delete"] } }, "p")).toThrow(
      'Policy "p": scope.capabilities.sideEffects has invalid value "delete"; allowed values: none, read, write, destructive, external.',
    );
    expect(() => normalizePolicyScope({ capabilities: { risks: ["extreme"] } }, "p")).toThrow(
      'Policy "p": scope.capabilities.risks has invalid value "extreme"; allowed values: low, medium, high, critical.',
    );
    expect(() => normalizePolicyScope({ surfaces: ["cli"] }, "p")).toThrow('Policy "p": scope.surfaces has invalid value "cli"; allowed values: direct, aiSdk, mcp, workflow, test.');
    expect(() => normalizePolicyScope({ capabilities: { id: [] } }, "p")).toThrow(
      'Policy "p": scope.capabilities has unknown key "id"; allowed keys: ids, tags, sideEffects, risks.',
    );
  });
});

describe("requireApproval errors", () => {
  it.each([
    ["null", null],
    ["a string", "Large refund"],
  ])("refuses %s as options", (_label, options) => {
    expect(() => requireApproval(options as never)).toThrow("requireApproval({ reason, approvalType?, expiresInMs?, quorum? }): options must be an object.");
  });

  it("names the field that is wrong", () => {
    expect(() => requireApproval({ reason: "" })).toThrow("requireApproval: `reason` must be a non-empty string.");
    expect(() => requireApproval({ reason: "r", approvalType: "" })).toThrow("requireApproval: `approvalType` must be a non-empty string when given.");
    expect(() => requireApproval({ reason: "r", expiresInMs: 0 })).toThrow("requireApproval: `expiresInMs` must be a finite number greater than 0 when given.");
    expect(() => requireApproval({ reason: "r", expiresInMs: "60000" as never })).toThrow("`expiresInMs` must be a finite number");
  });
});

describe("composePolicies errors", () => {
  it("asks for at least one policy, and names the position of a non-policy", () => {
    expect(() => composePolicies()).toThrow("composePolicies(...policies): give at least one policy.");
    const ok = definePolicy("ok", evaluate);
    for (const bad of [{ name: "x" }, null, "policy"]) {
      expect(() => composePolicies(ok, bad as unknown as AgentPolicy)).toThrow(
        "composePolicies: argument 1 is not a policy { name, phases, evaluate }; use definePolicy.",
      );
    }
  });
});
