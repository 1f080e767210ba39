// The shared adapter toolkit (`@orpc-agent/core/adapter`): one naming, one actor check, one set of model messages.
import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, createCapabilityRegistry, type AgentMeta } from "../../src/index.js";
import { approvalMessage, ConfigurationError, toolNameCollision, toolNameMap, type ToolNameRules } from "../../src/adapter/index.js";

const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "d", expose: { mcp: true }, sideEffect: "read", risk: "low", ...extra });
const capability = (extra?: Partial<AgentMeta>) => ap.meta(agentMeta(meta(extra))).handler(() => 1);
const rules: ToolNameRules = { surface: "mcp", adapter: "serveThing", validName: /^[A-Za-z0-9._-]{1,128}$/, ruleName: "Thing tool names" };

describe("toolNameMap", () => {
  it("names by meta toolName, else toolNaming, else the default, and answers only for exposed ids", () => {
    const registry = createCapabilityRegistry({
      a: { plain: capability(), named: capability({ adapters: { mcp: { toolName: "from_meta" } } }) },
      b: { off: capability({ expose: { aiSdk: true } }) },
    });
    expect(["a.plain", "a.named", "b.off"].map(toolNameMap(registry, rules).nameOf)).toEqual(["a_plain", "from_meta", undefined]);
    const shouting = toolNameMap(registry, { ...rules, toolNaming: (id) => id.toUpperCase() });
    expect(["a.plain", "a.named"].map(shouting.nameOf)).toEqual(["A.PLAIN", "from_meta"]);
    expect([...shouting.exposed]).toEqual([["A.PLAIN", "a.plain"], ["from_meta", "a.named"]]);
  });

  it("resolves exposed names, a name one unexposed capability holds, unknown names verbatim, and conceals raw ids", () => {
    const registry = createCapabilityRegistry({ a: { plain: capability() }, b: { off: capability({ expose: { aiSdk: true } }) } });
    const names = toolNameMap(registry, rules);
    expect(names.resolve("a_plain")).toBe("a.plain");
    expect(names.resolve("b_off")).toBe("b.off");
    expect(names.resolve("nothing_here")).toBe("nothing_here");
    expect(names.resolve("a.plain")).toBeUndefined();
  });

  it("throws a ConfigurationError (a TypeError) on an invalid name, a reserved one where tools are object keys, and a collision", () => {
    const registry = createCapabilityRegistry({ a: { one: capability() }, b: { two: capability() } });
    const invalid = () => toolNameMap(registry, { ...rules, toolNaming: () => "has space" });
    expect(invalid).toThrow(ConfigurationError);
    expect(invalid).toThrow(/serveThing: the tool name "has space" of "a\.one" is invalid: Thing tool names must match/);
    const collision = () => toolNameMap(registry, { ...rules, toolNaming: () => "same" });
    expect(collision).toThrow(TypeError);
    expect(collision).toThrow(/collision on mcp: "same" is claimed by "a\.one" and "b\.two"/);
    const reserved = (objectKeys: boolean) => () => toolNameMap(registry, { ...rules, objectKeys, toolNaming: (id) => (id === "a.one" ? "constructor" : "b") });
    expect(reserved(true)).toThrow(/reserved \(an Object\.prototype key\)/);
    expect(reserved(false)).not.toThrow();
  });

  it("never fails on an unexposed capability the naming function cannot name", () => {
    const registry = createCapabilityRegistry({ a: { one: capability() }, b: { off: capability({ expose: { aiSdk: true } }) } });
    const names = toolNameMap(registry, { ...rules, toolNaming: (id) => (id === "b.off" ? (undefined as never) : "one") });
    expect(names.nameOf("a.one")).toBe("one");
    expect(names.resolve("b.off")).toBe("b.off");
  });

  it("is computed once per registry, surface and naming function", () => {
    const registry = createCapabilityRegistry({ a: { one: capability() } });
    const naming = (id: string) => id;
    expect(toolNameMap(registry, rules)).toBe(toolNameMap(registry, rules));
    expect(toolNameMap(registry, { ...rules, toolNaming: naming })).toBe(toolNameMap(registry, { ...rules, toolNaming: naming }));
    expect(toolNameMap(registry, { ...rules, toolNaming: naming })).not.toBe(toolNameMap(registry, rules));
  });
});

describe("ConfigurationError", () => {
  it("is recognised across module copies by its brand, and not by look-alikes", async () => {
    // A query string makes Vite load the module a second time: the shape of a duplicated install.
    const specifier = "../../src/adapter/configuration-error.js?copy";
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import("../../src/adapter/configuration-error.js");
    const foreign = new copy.ConfigurationError("from another copy");
    expect(foreign).not.toBeInstanceOf(ConfigurationError);
    expect(ConfigurationError.isInstance(foreign)).toBe(true);
    expect(ConfigurationError.isInstance(toolNameCollision(rules, "x", '"a"', '"b"'))).toBe(true);
    expect(ConfigurationError.isInstance(new TypeError("plain"))).toBe(false);
    expect(ConfigurationError.isInstance({ name: "ConfigurationError" })).toBe(false);
    expect(ConfigurationError.isInstance(null)).toBe(false);
  });
});

describe("approvalMessage", () => {
  it("joins reasons, never ending in '..', and stands alone without reasons", () => {
    expect(approvalMessage([])).toBe("Awaiting approval.");
    expect(approvalMessage(["Refunds need a manager.", "Over budget"])).toBe("Awaiting approval: Refunds need a manager; Over budget.");
  });
});
