import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/snapshot/canonical-json.js";
import { sha256 } from "../../src/snapshot/sha256.js";

describe("canonicalJson (cli.md §6.1)", () => {
  it("sorts keys recursively by code unit, keeps array order, no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { z: [3, 1, 2], B: true }, A: null })).toBe('{"A":null,"a":{"B":true,"z":[3,1,2]},"b":1}');
  });

  it("drops undefined-valued properties but writes undefined array items as null, as JSON does", () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it("is insensitive to key order and sensitive to values", () => {
    expect(canonicalJson({ x: 1, y: { p: "q", r: "s" } })).toBe(canonicalJson({ y: { r: "s", p: "q" }, x: 1 }));
    expect(canonicalJson({ x: 1 })).not.toBe(canonicalJson({ x: 2 }));
  });

  it("refuses a top-level value with no JSON form", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});

describe("sha256", () => {
  it('prefixes the hex digest with "sha256:"', () => {
    expect(sha256("")).toBe("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
