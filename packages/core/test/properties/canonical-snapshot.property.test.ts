// The fused walk (internal/canonical-snapshot.ts) against the two walks it replaces on the audited path: for any
// input, the snapshot is the one `inputSnapshot` takes, every property is read as often, and the text it writes is
// exactly `canonicalJson` of that snapshot (SI-5, SI-6). Where it writes none, the ordinary path must still agree.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/approvals/canonical-json.js";
import { canonicalSnapshot } from "../../src/internal/canonical-snapshot.js";
import { inputSnapshot } from "../../src/internal/input-snapshot.js";

const RUNS = 400;

class Money {
  constructor(readonly cents: number) {}
}

const trickyKey = fc.constantFrom("__proto__", "constructor", "10", "9", "", "a", "B", "é", "😀", "toJSON", "z");
const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom<unknown>(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 5e-7, "\ud800", "\u2028"),
  fc.constant(null).map(() => new Date(Date.UTC(2026, 11, 3))),
  fc.constant(null).map(() => new Money(5)),
  fc.constant(null).map(() => new Map([["a", 1]])),
  fc.constant(null).map(() => new Uint8Array([1, 2])),
  fc.constant(null).map(() => ({ toJSON: (key: string) => ({ key, at: [1, undefined] }) })),
);

/** Trees of every shape the walks treat differently: holes, null prototypes, own "__proto__", unsorted keys. */
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.array(tie("node"), { maxLength: 3 }).map((items) => {
      const sparse = [...items];
      sparse.length += 2;
      return sparse;
    }),
    fc.tuple(fc.array(fc.tuple(fc.oneof(trickyKey, fc.string({ maxLength: 3 })), tie("node")), { maxLength: 5 }), fc.boolean()).map(([entries, nullProto]) => {
      const out: Record<string, unknown> = nullProto ? Object.create(null) : {};
      for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      return out;
    }),
  ),
})).node;

function usesPrototypeKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(usesPrototypeKey);
  return Object.keys(value).some((key) => (key !== "__proto__" && key in Object.prototype) || usesPrototypeKey((value as Record<string, unknown>)[key]));
}

function canonicalOrError(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** Same structure, prototypes, frozenness and leaves. */
function expectSameSnapshot(a: unknown, b: unknown): void {
  if (typeof a !== "object" || a === null) return void expect(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))).toBe(true);
  expect(typeof b).toBe("object");
  expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b as object));
  expect(Object.isFrozen(a)).toBe(Object.isFrozen(b));
  if (a instanceof Date) return void expect((b as Date).getTime()).toBe(a.getTime());
  expect(Reflect.ownKeys(a)).toEqual(Reflect.ownKeys(b as object));
  if (a instanceof Map || ArrayBuffer.isView(a)) return;
  for (const key of Object.keys(a)) expectSameSnapshot((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
}

describe("canonicalSnapshot: one walk for the snapshot and its canonical JSON", () => {
  it("SI-5 SI-6: takes the snapshot inputSnapshot takes and writes exactly canonicalJson of it, or nothing", () => {
    fc.assert(
      fc.property(tree, (value) => {
        const fused = canonicalSnapshot(value);
        const separate = inputSnapshot(value);
        expectSameSnapshot(fused.value, separate);
        const expected = canonicalOrError(separate);
        if (fused.canonical !== undefined) expect(fused.canonical).toBe(expected);
        // The ordinary path over the fused snapshot agrees with the ordinary path over the separate one.
        expect(canonicalOrError(fused.value)).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it("SI-5: writes the text for every plain JSON tree, keys in canonical order whatever the insertion order", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const fused = canonicalSnapshot(value);
        // A key Object.prototype also has ("constructor", "toString") is left to the ordinary path: its write could
        // reach a setter there.
        if (usesPrototypeKey(value)) expect(fused.canonical).toBeUndefined();
        else expect(fused.canonical).toBe(canonicalJson(value));
        expect(canonicalJson(fused.value)).toBe(canonicalJson(value));
      }),
      { numRuns: RUNS },
    );
    expect(canonicalSnapshot({ z: 1, a: undefined, m: [undefined, 2], __proto__x: "y" }).canonical).toBe('{"__proto__x":"y","m":[null,2],"z":1}');
  });

  it("SI-6: reads every getter exactly as often as inputSnapshot does", () => {
    const counted = () => {
      const reads: Record<string, number> = {};
      const make = (name: string, value: unknown) => ({
        enumerable: true,
        get() {
          reads[name] = (reads[name] ?? 0) + 1;
          return value;
        },
      });
      const inner = Object.defineProperties({}, { b: make("b", 2), toJSON: make("toJSON", undefined) });
      const root = Object.defineProperties({}, { a: make("a", inner), d: make("d", new Date(0)), n: make("n", Number.NaN) });
      return { root, reads };
    };
    const one = counted();
    canonicalSnapshot(one.root);
    const two = counted();
    inputSnapshot(two.root);
    expect(one.reads).toEqual(two.reads);
    expect(one.reads).toEqual({ a: 1, d: 1, n: 1, b: 1, toJSON: 2 });
  });

  it("SI-6: refuses a Proxy anywhere, as inputSnapshot does", () => {
    expect(() => canonicalSnapshot({ a: [new Proxy({}, {})] })).toThrow(/Proxy/);
  });

  it("SI-5: leaves the text to the ordinary path past its depth limit, with the same snapshot", () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const fused = canonicalSnapshot(deep);
    expect(fused.canonical).toBeUndefined();
    expect(canonicalJson(fused.value)).toBe(canonicalJson(deep));
  });

  it("SI-5: defers to the ordinary path when Array.prototype gains a toJSON", () => {
    const proto = Array.prototype as { toJSON?: unknown };
    proto.toJSON = () => "patched";
    try {
      const fused = canonicalSnapshot({ list: [1] });
      expect(fused.canonical).toBeUndefined();
      expect(canonicalJson(fused.value)).toBe('{"list":"patched"}');
    } finally {
      delete proto.toJSON;
    }
  });
});
