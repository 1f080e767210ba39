import { describe, expect, it } from "vitest";
import { governanceOf, isGovernanceLike, isRegistryLike, isRuntimeLike } from "../../src/snapshot/source-shapes.js";

const registry = { inspect: () => ({}), ids: () => [], capabilities: () => [] };
const governance = { registry, policies: [], manifest: [] };

describe("source shapes are duck-typed (cli.md §3, §5.3)", () => {
  it("recognizes registry, governance and runtime by their members", () => {
    expect(isRegistryLike(registry)).toBe(true);
    expect(isRegistryLike({ inspect: () => ({}), ids: () => [] })).toBe(false);
    expect(isGovernanceLike(governance)).toBe(true);
    expect(isGovernanceLike({ registry, manifest: {} })).toBe(false);
    expect(isRuntimeLike({ invoke: () => undefined, registry })).toBe(true);
    expect(isRuntimeLike({ invoke: "no", registry })).toBe(false);
    expect([null, undefined, 1, "x"].some((value) => isRegistryLike(value) || isGovernanceLike(value))).toBe(false);
  });

  it("governanceOf: the source itself, else source.governance with an array manifest, else undefined", () => {
    expect(governanceOf(governance)).toBe(governance);
    expect(governanceOf({ invoke: () => undefined, registry, governance })).toBe(governance);
    expect(governanceOf({ invoke: () => undefined, registry })).toBeUndefined();
    expect(governanceOf({ governance: { manifest: "no" } })).toBeUndefined();
    expect(governanceOf(registry)).toBeUndefined();
    expect(governanceOf(null)).toBeUndefined();
  });
});
