import { describe, expect, it } from "vitest";
import { buildProblems, procedureWith, validAgent } from "../registry/fixtures.js";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";

const caps = { maxUses: 5, maxTtlMs: 3_600_000, scopes: ["conversation"] };
const withGrants = (grants: unknown, approval: Record<string, unknown> = { required: true }) => ({ orders: { refund: procedureWith({ ...validAgent, approval: { ...approval, grants } }) } });

describe("meta.approval.grants validation (SI-13)", () => {
  it("accepts caps, with or without approval.required, and keeps them frozen on the registry's meta", () => {
    const registry = createCapabilityRegistry(withGrants(caps));
    const meta = registry.get("orders.refund")!.meta;
    expect(meta.approval?.grants).toEqual(caps);
    expect(Object.isFrozen(meta.approval?.grants)).toBe(true);
    expect(Object.isFrozen(meta.approval?.grants?.scopes)).toBe(true);
    expect(() => createCapabilityRegistry(withGrants({ ...caps, scopes: ["actor", "conversation"] }, {}))).not.toThrow();
  });

  const cases: [string, unknown, string][] = [
    ["not an object", true, "meta.approval.grants must be a plain object { maxUses, maxTtlMs, scopes }, got true"],
    ["maxUses 0", { ...caps, maxUses: 0 }, "meta.approval.grants.maxUses must be an integer >= 1, got 0"],
    ["maxUses fractional", { ...caps, maxUses: 1.5 }, "meta.approval.grants.maxUses must be an integer >= 1, got 1.5"],
    ["maxUses missing", { maxTtlMs: 1, scopes: ["actor"] }, "meta.approval.grants.maxUses must be an integer >= 1, got undefined"],
    ["maxTtlMs Infinity", { ...caps, maxTtlMs: Number.POSITIVE_INFINITY }, "meta.approval.grants.maxTtlMs must be a finite number > 0, got Infinity"],
    ["maxTtlMs negative", { ...caps, maxTtlMs: -1 }, "meta.approval.grants.maxTtlMs must be a finite number > 0, got -1"],
    ["scopes empty", { ...caps, scopes: [] }, 'meta.approval.grants.scopes must be a non-empty array of distinct "conversation" | "actor", got an array'],
    ["scopes unknown", { ...caps, scopes: ["global"] }, 'meta.approval.grants.scopes must be a non-empty array of distinct "conversation" | "actor", got an array'],
    ["scopes repeated", { ...caps, scopes: ["actor", "actor"] }, 'meta.approval.grants.scopes must be a non-empty array of distinct "conversation" | "actor", got an array'],
    ["unknown cap", { ...caps, maxBudget: 100 }, "meta.approval.grants.maxBudget is not a grant cap (maxUses, maxTtlMs, scopes)"],
  ];
  it.each(cases)("%s is a registry problem naming the capability and field", (_label, grants, expected) => {
    expect(buildProblems(withGrants(grants))).toEqual([`orders.refund: ${expected}`]);
  });
});
