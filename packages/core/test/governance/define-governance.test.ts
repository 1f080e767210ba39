import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentMeta, AgentPolicy, PolicyScope } from "../../src/capability/types.js";
import { defineGovernance } from "../../src/governance/define-governance.js";
import { composePolicies } from "../../src/policy/compose.js";
import { allow } from "../../src/policy/decisions.js";
import { definePolicy } from "../../src/policy/define-policy.js";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import type { CapabilityRegistry } from "../../src/registry/types.js";
import { agentMeta } from "@orpc-agent/core";

function procedure(agent: AgentMeta) {
  return os
    .input(z.object({ id: z.string() }))
    .meta(agentMeta(agent))
    .handler(() => "ok");
}

// Registry order: orders.refund, orders.list, orders.archive, misc.ping, misc.hidden.
const registry = createCapabilityRegistry({
  orders: {
    refund: procedure({ description: "Refund", expose: { mcp: true }, sideEffect: "write", risk: "high", tags: ["finance", "orders"], idempotent: true }),
    list: procedure({ description: "List", expose: { aiSdk: true, mcp: true }, sideEffect: "read", risk: "low", tags: ["orders"] }),
    archive: procedure({ description: "Archive", expose: { direct: true, mcp: false }, sideEffect: "destructive", risk: "critical", tags: ["orders"] }),
  },
  misc: {
    ping: procedure({ description: "Ping", expose: { aiSdk: true }, sideEffect: "none", risk: "low" }),
    hidden: procedure({ description: "Nowhere", expose: {}, sideEffect: "read", risk: "low", tags: ["finance"] }),
  },
});

const policy = (name: string, scope?: PolicyScope, phases?: AgentPolicy["phases"]) =>
  definePolicy(name, () => allow(), { scope, phases });

function manifestOf(...policies: AgentPolicy[]) {
  return defineGovernance({ registry, policies }).manifest;
}

describe("defineGovernance: validation", () => {
  it.each([
    ["a missing config", undefined],
    ["a null config", null],
    ["a missing registry", {}],
    ["a registry without get", { registry: { ids: () => [] } }],
    ["policies that are not an array", { registry, policies: policy("p") }],
    ["a non-policy in policies", { registry, policies: [policy("p"), { name: "q", evaluate: () => allow() }] }],
  ])("throws a TypeError for %s", (_label, config) => {
    expect(() => defineGovernance(config as never)).toThrow(TypeError);
  });

  it("rejects a runtime-level policy scoping an unknown id, naming the policy and the id", () => {
    const typo = policy("refund-guard", { capabilities: { ids: ["orders.refund", "orders.refnud"] } });

    expect(() => defineGovernance({ registry, policies: [typo] })).toThrow(TypeError);
    expect(() => defineGovernance({ registry, policies: [typo] })).toThrow(/"refund-guard".*"orders\.refnud"/);
  });

  it("rejects an unknown scoped id inside a composite", () => {
    const composite = composePolicies(policy("ok"), policy("inner-typo", { capabilities: { ids: ["nope"] } }));

    expect(() => defineGovernance({ registry, policies: [composite] })).toThrow(/"inner-typo".*"nope"/);
  });

  it("rejects a scoped id that a filtered registry no longer holds (core.md §15 item 13)", () => {
    const mcpOnly = registry.filter({ surface: "mcp" });
    const scoped = policy("ping-guard", { capabilities: { ids: ["misc.ping"] } });

    expect(() => defineGovernance({ registry, policies: [scoped] })).not.toThrow();
    expect(() => defineGovernance({ registry: mcpOnly, policies: [scoped] })).toThrow(/"ping-guard".*"misc\.ping"/);
  });

  it("does not check ids in capability-level scopes", () => {
    const local = createCapabilityRegistry({
      solo: procedure({
        description: "Solo",
        expose: { mcp: true },
        sideEffect: "read",
        risk: "low",
        policies: [policy("local", { capabilities: { ids: ["not.here"] } })],
      }),
    });

    expect(() => defineGovernance({ registry: local })).not.toThrow();
  });

  it("validates the scope of a hand-built policy", () => {
    const handBuilt = { name: "raw", phases: ["invocation"], scope: { capabilities: { risk: ["low"] } }, evaluate: () => allow() };

    expect(() => defineGovernance({ registry, policies: [handBuilt as AgentPolicy] })).toThrow(TypeError);
  });
});

describe("defineGovernance: result", () => {
  it("keeps the registry and a flattened, defensive copy of the policies", () => {
    const [a, b, c] = [policy("a"), policy("b"), policy("c")];
    const declared = [a, composePolicies(b, c)];

    const governance = defineGovernance({ registry, policies: declared });
    declared.push(policy("late"));

    expect(governance.registry).toBe(registry);
    expect(governance.policies).toEqual([a, b, c]);
    expect(governance.policies[1]).toBe(b);
  });

  it("defaults to no policies and an empty manifest", () => {
    const governance = defineGovernance({ registry });

    expect(governance.policies).toEqual([]);
    expect(governance.manifest).toEqual([]);
  });

  it("is deep-frozen", () => {
    const governance = defineGovernance({
      registry,
      policies: [policy("scoped", { capabilities: { tags: ["orders"] }, surfaces: ["mcp"] }), policy("open")],
    });

    expect(Object.isFrozen(governance)).toBe(true);
    expect(Object.isFrozen(governance.policies)).toBe(true);
    expect(Object.isFrozen(governance.manifest)).toBe(true);
    for (const entry of governance.manifest) {
      expect(Object.isFrozen(entry)).toBe(true);
      expect(Object.isFrozen(entry.phases)).toBe(true);
      expect(Object.isFrozen(entry.capabilities)).toBe(true);
    }
    const scope = governance.manifest[0].scope;
    expect(Object.isFrozen(scope)).toBe(true);
    expect(Object.isFrozen(scope?.capabilities)).toBe(true);
    expect(Object.isFrozen(scope?.capabilities?.tags)).toBe(true);
    expect(Object.isFrozen(scope?.surfaces)).toBe(true);
    expect(() => (governance.policies as AgentPolicy[]).push(policy("x"))).toThrow(TypeError);
    expect(() => (governance.manifest[0].capabilities as string[]).push("x")).toThrow(TypeError);
  });

  it("does not freeze the caller's policies array or a hand-built policy's phases", () => {
    const phases = ["invocation"] as AgentPolicy["phases"];
    const declared: AgentPolicy[] = [{ name: "raw", phases, evaluate: () => allow() }];

    defineGovernance({ registry, policies: declared });

    expect(Object.isFrozen(declared)).toBe(false);
    expect(Object.isFrozen(phases)).toBe(false);
  });
});

describe("defineGovernance: manifest", () => {
  it("has one entry per flattened policy, in evaluation order", () => {
    const manifest = manifestOf(
      policy("first"),
      composePolicies(policy("inner-a"), composePolicies(policy("inner-b"))),
      policy("last", undefined, ["discovery", "execution"]),
    );

    expect(manifest.map((entry) => entry.name)).toEqual(["first", "inner-a", "inner-b", "last"]);
    expect(manifest[3].phases).toEqual(["discovery", "execution"]);
  });

  it("lists every capability, sorted, for an unscoped policy, and omits scope", () => {
    const [entry] = manifestOf(policy("open"));

    expect(entry.capabilities).toEqual(["misc.hidden", "misc.ping", "orders.archive", "orders.list", "orders.refund"]);
    expect("scope" in entry).toBe(false);
  });

  it("carries the normalized scope when one was declared", () => {
    const [entry] = manifestOf(policy("scoped", { capabilities: { tags: ["orders", "finance", "orders"], risks: ["high", "low"] } }));

    expect(entry.scope).toEqual({ capabilities: { tags: ["finance", "orders"], risks: ["low", "high"] } });
  });

  it("selects candidates with AND across fields and ANY within a field", () => {
    const [byTag, bySideEffect, both, byId] = manifestOf(
      policy("tag", { capabilities: { tags: ["finance"] } }),
      policy("side-effect", { capabilities: { sideEffects: ["write", "destructive"] } }),
      policy("both", { capabilities: { tags: ["orders"], risks: ["low"] } }),
      policy("id", { capabilities: { ids: ["orders.list", "misc.ping"] } }),
    );

    expect(byTag.capabilities).toEqual(["misc.hidden", "orders.refund"]);
    expect(bySideEffect.capabilities).toEqual(["orders.archive", "orders.refund"]);
    expect(both.capabilities).toEqual(["orders.list"]);
    expect(byId.capabilities).toEqual(["misc.ping", "orders.list"]);
  });

  it("keeps only capabilities exposed (=== true) on one of the scope's surfaces", () => {
    const [mcp, modelSurfaces, direct, none] = manifestOf(
      policy("mcp", { surfaces: ["mcp"] }),
      policy("model", { surfaces: ["aiSdk", "mcp"], capabilities: { tags: ["orders"] } }),
      policy("direct", { surfaces: ["direct"] }),
      policy("none", { surfaces: [] }),
    );

    // orders.archive has `mcp: false` and misc.hidden exposes nothing.
    expect(mcp.capabilities).toEqual(["orders.list", "orders.refund"]);
    expect(modelSurfaces.capabilities).toEqual(["orders.list", "orders.refund"]);
    expect(direct.capabilities).toEqual(["orders.archive"]);
    expect(none.capabilities).toEqual([]);
  });

  it("selects nothing for a present empty selector, and untagged capabilities never match tags", () => {
    const [emptyTags, emptyIds, tagged] = manifestOf(
      policy("empty-tags", { capabilities: { tags: [] } }),
      policy("empty-ids", { capabilities: { ids: [] } }),
      policy("tagged", { capabilities: { tags: ["finance", "orders"] } }),
    );

    expect(emptyTags.capabilities).toEqual([]);
    expect(emptyIds.capabilities).toEqual([]);
    expect(tagged.capabilities).not.toContain("misc.ping");
  });

  it("computes candidates on the registry it was given", () => {
    const narrowed: CapabilityRegistry = registry.filter({ surface: "aiSdk" });

    const [entry] = defineGovernance({ registry: narrowed, policies: [policy("open")] }).manifest;

    expect(entry.capabilities).toEqual(["misc.ping", "orders.list"]);
  });

  it("never calls evaluate", () => {
    let calls = 0;
    const counted = definePolicy("counted", () => {
      calls += 1;
      return allow();
    });

    defineGovernance({ registry, policies: [counted, composePolicies(counted)] });

    expect(calls).toBe(0);
  });
});
