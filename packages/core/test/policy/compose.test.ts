import { describe, expect, it, vi } from "vitest";
import { composePolicies, flattenPolicies } from "../../src/policy/compose.js";
import { allow, deny, hide, requireApproval } from "../../src/policy/decisions.js";
import { definePolicy } from "../../src/policy/define-policy.js";
import type { AgentPolicy, PolicyDecision } from "../../src/capability/types.js";
import { refundRequest } from "./refund-request.js";

const request = refundRequest;

const returning = (name: string, decision: PolicyDecision, options?: Parameters<typeof definePolicy>[2]) =>
  definePolicy(name, () => decision, options);

describe("composePolicies: packaging", () => {
  it("names the composite after its members, comma-joined", () => {
    const composite = composePolicies(returning("a", allow()), returning("b", allow()));

    expect(composite.name).toBe("composed(a,b)");
  });

  it("unions phases in first-appearance order", () => {
    const composite = composePolicies(
      returning("a", allow(), { phases: ["execution"] }),
      returning("b", allow(), { phases: ["discovery", "execution"] }),
      returning("c", allow(), { phases: ["invocation"] }),
    );

    expect(composite.phases).toEqual(["execution", "discovery", "invocation"]);
  });

  it("has no scope, even when members are scoped", () => {
    const composite = composePolicies(returning("a", allow(), { scope: { surfaces: ["mcp"] } }));

    expect(composite.scope).toBeUndefined();
    expect("scope" in composite).toBe(false);
  });

  it("is frozen and shows no member list among its own enumerable keys", () => {
    const composite = composePolicies(returning("a", allow()));

    expect(Object.isFrozen(composite)).toBe(true);
    expect(Object.keys(composite).sort()).toEqual(["evaluate", "name", "phases"]);
    expect(JSON.stringify(composite)).toBe('{"name":"composed(a)","phases":["invocation"]}');
  });

  it("flattens nested composites into one member list", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => returning(name, allow()));
    const composite = composePolicies(composePolicies(a, b), c, composePolicies(composePolicies(d)));

    expect(composite.name).toBe("composed(a,b,c,d)");
    expect(flattenPolicies([composite])).toEqual([a, b, c, d]);
  });

  it("throws a TypeError without policies or for a non-policy argument", () => {
    expect(() => composePolicies()).toThrow(TypeError);
    expect(() => composePolicies(returning("a", allow()), { name: "x" } as unknown as AgentPolicy)).toThrow(TypeError);
  });
});

describe("flattenPolicies", () => {
  it("expands composites in place and keeps plain policies and order", () => {
    const [a, b, c] = ["a", "b", "c"].map((name) => returning(name, allow()));

    expect(flattenPolicies([c, composePolicies(a, b), a])).toEqual([c, a, b, a]);
  });

  it("returns a new array", () => {
    const list = [returning("a", allow())];

    expect(flattenPolicies(list)).not.toBe(list);
  });

  it("does not treat a look-alike object as a composite", () => {
    const lookAlike = { ...composePolicies(returning("a", allow())) };

    expect(flattenPolicies([lookAlike])).toEqual([lookAlike]);
  });
});

describe("composite evaluate (direct calls)", () => {
  it("combines by precedence deny > hide > require-approval > allow", async () => {
    const approval = requireApproval({ reason: "big" });
    const cases: [PolicyDecision[], PolicyDecision["type"]][] = [
      [[allow(), allow()], "allow"],
      [[allow(), approval], "require-approval"],
      [[approval, hide(), allow()], "hide"],
      [[hide(), deny(), approval], "deny"],
      [[deny(), allow()], "deny"],
    ];
    for (const [decisions, expected] of cases) {
      const composite = composePolicies(...decisions.map((decision, index) => returning(`p${index}`, decision)));
      expect((await composite.evaluate(request())).type).toBe(expected);
    }
  });

  it("returns the first stance of the winning type", async () => {
    const composite = composePolicies(
      returning("a", deny("FIRST", "first")),
      returning("b", deny("SECOND", "second")),
    );

    expect(await composite.evaluate(request())).toEqual({ type: "deny", code: "FIRST", message: "first" });
  });

  it("evaluates every applicable member in order, without short-circuit", async () => {
    const calls: string[] = [];
    const tracked = (name: string, decision: PolicyDecision) =>
      definePolicy(name, async () => {
        calls.push(name);
        return decision;
      });
    const composite = composePolicies(tracked("a", deny()), tracked("b", allow()), tracked("c", hide()));

    await composite.evaluate(request());

    expect(calls).toEqual(["a", "b", "c"]);
  });

  it("skips members whose phases or scope do not apply", async () => {
    const wrongPhase = vi.fn(() => deny());
    const wrongSurface = vi.fn(() => deny());
    const wrongTag = vi.fn(() => deny());
    const applicable = vi.fn(() => requireApproval({ reason: "r" }));
    const composite = composePolicies(
      definePolicy("phase", wrongPhase, { phases: ["discovery"] }),
      definePolicy("surface", wrongSurface, { scope: { surfaces: ["aiSdk"] } }),
      definePolicy("tag", wrongTag, { scope: { capabilities: { tags: ["hr"] } } }),
      definePolicy("ok", applicable, { scope: { capabilities: { tags: ["finance"] }, surfaces: ["mcp"] } }),
    );

    const decision = await composite.evaluate(request());

    expect(decision.type).toBe("require-approval");
    expect(wrongPhase).not.toHaveBeenCalled();
    expect(wrongSurface).not.toHaveBeenCalled();
    expect(wrongTag).not.toHaveBeenCalled();
    expect(applicable).toHaveBeenCalledOnce();
  });

  it("allows when no member applies", async () => {
    const composite = composePolicies(returning("a", deny(), { phases: ["discovery"] }));

    expect(await composite.evaluate(request())).toEqual({ type: "allow" });
  });

  it("throws when a member throws, even alongside a deny, after running the rest", async () => {
    const later = vi.fn(() => allow());
    const composite = composePolicies(
      returning("a", deny()),
      definePolicy("b", () => {
        throw new Error("boom");
      }),
      definePolicy("c", later),
    );

    await expect(composite.evaluate(request())).rejects.toThrow("boom");
    expect(later).toHaveBeenCalledOnce();
  });

  it("throws when a member rejects or returns something that is not a decision", async () => {
    const rejecting = composePolicies(definePolicy("a", () => Promise.reject(new Error("nope"))));
    const garbage = composePolicies(definePolicy("g", () => undefined as unknown as PolicyDecision));

    await expect(rejecting.evaluate(request())).rejects.toThrow("nope");
    await expect(garbage.evaluate(request())).rejects.toThrow(/"g" returned an invalid decision/);
  });
});
