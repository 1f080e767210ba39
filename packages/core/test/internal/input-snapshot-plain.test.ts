import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/approvals/canonical-json.js";
import { inputSnapshot, isPlainJsonSnapshot, type PlainJsonMark } from "../../src/internal/input-snapshot.js";

// A snapshot marked plain JSON lets the grant lookup skip serializing the input to know it has a canonical form
// (SI-13, issue 45): the mark must never be on a value canonical JSON would refuse.

class Point {
  constructor(readonly x: number) {}
}

describe("isPlainJsonSnapshot", () => {
  it("marks a snapshot of plain objects, arrays and JSON primitives, and nothing it did not take", () => {
    const plain = { id: "o1", amount: 10, tags: ["a", null, true], nested: { deep: [{ n: -0 }] }, skipped: undefined };
    const mark: PlainJsonMark = {};
    const snapshot = inputSnapshot(plain, mark);
    expect(isPlainJsonSnapshot(snapshot, mark)).toBe(true);
    // Only the very snapshot the mark recorded: an equal value, or the caller's original, is not it.
    expect(isPlainJsonSnapshot(inputSnapshot(plain), mark)).toBe(false);
    expect(isPlainJsonSnapshot(plain, mark)).toBe(false);
    // Only when asked: a capability no grant can cover pays nothing for the mark.
    const unmarked: PlainJsonMark = {};
    expect(isPlainJsonSnapshot(inputSnapshot(plain), unmarked)).toBe(false);
    expect(isPlainJsonSnapshot(Object.create(null), unmarked)).toBe(false);
    expect(isPlainJsonSnapshot({ id: "o1" }, unmarked)).toBe(false);
    expect(isPlainJsonSnapshot("text", unmarked)).toBe(false);
    const text: PlainJsonMark = {};
    expect(isPlainJsonSnapshot(inputSnapshot("text", text), text)).toBe(false);
  });

  it.each([
    ["a non-finite number", { amount: Number.NaN }],
    ["an infinity in an array", [1, Number.POSITIVE_INFINITY]],
    ["a bigint", { amount: 10n }],
    ["a function", { run: () => 1 }],
    ["a symbol", { tag: Symbol("t") }],
    ["a Date", { at: new Date(0) }],
    ["a Map", { tags: new Map([["a", 1]]) }],
    ["a Set", { tags: new Set([1]) }],
    ["a typed array", { bytes: new Uint8Array([1]) }],
    ["a class instance", { point: new Point(1) }],
    ["an object with toJSON", { money: { toJSON: () => "10 EUR" } }],
    ["nesting past 64 levels", nest(65)],
  ])("does not mark a snapshot holding %s", (_name, value) => {
    const mark: PlainJsonMark = {};
    expect(isPlainJsonSnapshot(inputSnapshot(value, mark), mark)).toBe(false);
  });

  it("marks nesting up to 64 levels", () => {
    const mark: PlainJsonMark = {};
    expect(isPlainJsonSnapshot(inputSnapshot(nest(63), mark), mark)).toBe(true);
  });

  it("property: every snapshot marked plain has a canonical JSON form", () => {
    const odd = fc.oneof(
      fc.constant(Number.NaN),
      fc.constant(Number.NEGATIVE_INFINITY),
      fc.bigInt(),
      fc.constant(() => 1),
      fc.constant(Symbol("s")),
      fc.date(),
      fc.constant(new Map()),
      fc.constant(new Point(2)),
      fc.constant({ toJSON: () => ({ toJSON: () => 1 }) }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.jsonValue(), odd, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(fc.string(), tie("node"), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (input) => {
        let snapshot: unknown;
        const mark: PlainJsonMark = {};
        try {
          snapshot = inputSnapshot(input, mark);
        } catch {
          return;
        }
        if (isPlainJsonSnapshot(snapshot, mark)) expect(() => canonicalJson(snapshot)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

function nest(levels: number): unknown {
  let value: unknown = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { next: value };
  return value;
}
