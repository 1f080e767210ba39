// Property-based checks of canonical JSON (docs/architecture/spec/core.md#core-10 "Canonical JSON + hash", SI-5): what an approval's input
// hash binds. Generated JSON trees, rebuilt with shuffled keys, mutated at one leaf, or seeded with one value that
// has no canonical form at a known path.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, UnserializableInputError } from "../../src/approvals/canonical-json.js";
import { hashCanonicalInput } from "../../src/approvals/hash.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const RUNS = 300;
const json = fc.jsonValue({ maxDepth: 5 }) as fc.Arbitrary<Json>;
/** Keys that are easy to get wrong: integer-like (engines order them first), "__proto__", empty, astral. */
const trickyKey = fc.constantFrom("__proto__", "constructor", "10", "9", "", "a", "B", "é", "😀", "toJSON");
const objectWithTrickyKeys = fc.dictionary(fc.oneof(trickyKey, fc.string()), json, { maxKeys: 6 });

/** Defines own enumerable keys, "__proto__" included, in the given order. */
function build(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** The same tree with every object's keys inserted in an order chosen by `rank`. */
function reordered(value: unknown, rank: (key: string) => number): unknown {
  if (Array.isArray(value)) return value.map((item) => reordered(item, rank));
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? 1 : -1));
  return build(keys.map((key) => [key, reordered((value as Record<string, unknown>)[key], rank)]));
}

/** Every path to a leaf or container, root included. */
function paths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...prefix, i])));
  else if (typeof value === "object" && value !== null) for (const key of Object.keys(value)) out.push(...paths((value as Record<string, unknown>)[key], [...prefix, key]));
  return out;
}

/** A copy of `value` with the node at `path` replaced. */
function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaceAt(item, rest, replacement) : item));
  const source = value as Record<string, unknown>;
  return build(Object.keys(source).map((key) => [key, key === head ? replaceAt(source[key], rest, replacement) : source[key]]));
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** JSON equality with -0 read as 0 (canonical JSON writes both as "0", as JSON.stringify does). */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((key, i) => key === kb[i] && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

function unserializableAt(value: unknown): UnserializableInputError {
  try {
    canonicalJson(value);
  } catch (error) {
    if (error instanceof UnserializableInputError) return error;
    throw new Error(`expected UnserializableInputError, got ${String(error)}`);
  }
  throw new Error("expected canonicalJson to throw");
}

class Money {
  constructor(readonly cents: number) {}
}

/** Values with no canonical form (docs/architecture/spec/core.md#core-10): never dropped, never stringified lossily. */
const unserializable = fc.constantFrom<[string, () => unknown]>(
  ["NaN", () => Number.NaN],
  ["Infinity", () => Number.POSITIVE_INFINITY],
  ["-Infinity", () => Number.NEGATIVE_INFINITY],
  ["bigint", () => 10n],
  ["function", () => () => 1],
  ["symbol", () => Symbol("s")],
  ["Map", () => new Map([["a", 1]])],
  ["Set", () => new Set([1])],
  ["class instance", () => new Money(5)],
  ["throwing toJSON", () => ({ toJSON: () => { throw new Error("toJSON exploded"); } })],
);

describe("canonical JSON properties (SI-5)", () => {
  it("SI-5: is independent of key insertion order at every depth, for any JSON tree", () => {
    fc.assert(
      fc.property(fc.oneof(json, objectWithTrickyKeys), fc.func(fc.integer()), (value, rank) => {
        const shuffled = reordered(value, (key) => rank(key));
        expect(canonicalJson(shuffled)).toBe(canonicalJson(value));
        expect(hashCanonicalInput(shuffled)).toBe(hashCanonicalInput(value));
      }),
      { numRuns: RUNS },
    );
  });

  it("SI-5: round-trips through JSON.parse, is a fixpoint, and writes object keys in default sort order", () => {
    fc.assert(
      fc.property(fc.oneof(json, objectWithTrickyKeys), (value) => {
        const text = canonicalJson(value);
        const parsed: unknown = JSON.parse(text);
        expect(sameJson(parsed, value)).toBe(true);
        expect(canonicalJson(parsed)).toBe(text);
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          const expected = `{${Object.keys(value)
            .sort()
            .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
            .join(",")}}`;
          expect(text).toBe(expected);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("SI-5: is sensitive to every value: replacing any node with a different JSON value changes text and hash", () => {
    fc.assert(
      fc.property(
        fc.oneof(json, objectWithTrickyKeys).chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...paths(value)), json)),
        ([value, path, replacement]) => {
          fc.pre(!sameJson(getAt(value, path), replacement));
          const mutated = replaceAt(value, path, replacement);
          expect(canonicalJson(mutated)).not.toBe(canonicalJson(value));
          expect(hashCanonicalInput(mutated)).not.toBe(hashCanonicalInput(value));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("SI-5: adding or removing one key changes the hash, even when the value is null or an empty container", () => {
    fc.assert(
      fc.property(objectWithTrickyKeys, fc.oneof(trickyKey, fc.string()), fc.constantFrom<Json>(null, [], {}, "", 0, false), (value, key, extra) => {
        fc.pre(!Object.hasOwn(value, key));
        const grown = build([...Object.entries(value), [key, extra]]);
        expect(hashCanonicalInput(grown)).not.toBe(hashCanonicalInput(value));
      }),
      { numRuns: RUNS },
    );
  });

  it("SI-5: drops undefined-valued properties anywhere, and writes undefined array elements as null", () => {
    fc.assert(
      fc.property(json.chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...paths(value)))), ([value, path]) => {
        const target = getAt(value, path);
        if (typeof target === "object" && target !== null && !Array.isArray(target)) {
          fc.pre(!Object.hasOwn(target, "__undefined__"));
          const padded = replaceAt(value, path, build([...Object.entries(target), ["__undefined__", undefined]]));
          expect(canonicalJson(padded)).toBe(canonicalJson(value));
        } else if (Array.isArray(target)) {
          const padded = replaceAt(value, path, [...target, undefined]);
          expect(canonicalJson(padded)).toBe(canonicalJson(replaceAt(value, path, [...target, null])));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("SI-5: rejects a value with no canonical form wherever it sits, naming its path; the hash is undefined", () => {
    fc.assert(
      fc.property(json.chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...paths(value)), unserializable)), ([value, path, [kind, make]]) => {
        const poisoned = replaceAt(value, path, make());
        const error = unserializableAt(poisoned);
        // A throwing toJSON is reported for the whole value ("reading the value threw"); the others by position.
        if (kind !== "throwing toJSON") expect(error.path).toEqual(path);
        expect(hashCanonicalInput(poisoned)).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it("SI-5: rejects a cycle wherever it closes, and ignores symbol keys", () => {
    fc.assert(
      fc.property(json.chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...paths(value)))), ([value, path]) => {
        const root = { value: replaceAt(value, path, null) } as Record<string, unknown>;
        const fullPath: Path = ["value", ...path];
        const parent = getAt(root, fullPath.slice(0, -1)) as object;
        Object.defineProperty(parent, fullPath[fullPath.length - 1]!, { value: root, enumerable: true, writable: true, configurable: true });
        expect(unserializableAt(root).path).toEqual(fullPath);

        const plain = typeof value === "object" && value !== null && !Array.isArray(value) ? value : { value };
        const withSymbol = { ...plain, [Symbol("k")]: 1 };
        expect(canonicalJson(withSymbol)).toBe(canonicalJson(plain));
      }),
      { numRuns: 100 },
    );
  });

  it("refusing a deeply nested unserializable value costs linear time (6 KB of JSON must not buy seconds of CPU)", () => {
    // `[[[…1e999…]]]` 3000 deep: JSON.parse makes the leaf Infinity. Building the error path level by level, with a
    // new Error per level, took over a second here; a model can send this to any tool whose input gets hashed.
    const deep = JSON.parse("[".repeat(3_000) + "1e999" + "]".repeat(3_000)) as unknown;
    const started = performance.now();
    const error = unserializableAt(deep);
    const elapsed = performance.now() - started;
    expect(error.path).toHaveLength(3_000);
    expect(error.reason).toBe("non-finite number Infinity");
    expect(elapsed).toBeLessThan(250);
  });

  it("SI-5: nesting deeper than the stack is unserializable, never a RangeError", () => {
    for (const depth of [10_000, 200_000]) {
      let deep: unknown = 1;
      for (let i = 0; i < depth; i++) deep = i % 2 === 0 ? [deep] : { d: deep };
      const hash = hashCanonicalInput(deep);
      // Either it fits the stack and has a hash, or it is refused; it never throws past the API.
      expect(hash === undefined || /^[0-9a-f]{64}$/.test(hash)).toBe(true);
    }
  });
});
