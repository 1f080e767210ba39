// Generators of hostile tool arguments. As JSON text for the wire (what an MCP client can send: duplicate keys,
// "__proto__"/"constructor" keys, numbers JSON.parse turns into Infinity or rounds, lone surrogates, huge strings,
// deep nesting), and as JavaScript values for in-process tools (all of that plus NaN, bigint, symbols, functions,
// cycles, throwing getters and proxies, thenables, class instances).
import fc from "fast-check";
import { SENTINEL } from "./app.js";

/** Keys that target prototypes, identity (SI-3) or promise/serialization hooks. */
const DANGEROUS_KEYS = [
  "__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "__defineGetter__",
  "then", "toJSON", "", "actor", "role", "userId", "agent", "isAdmin",
];

const numberText = fc.oneof(
  fc.constantFrom("0", "-0", "1e999", "-1e999", "1e-400", "123456789012345678901234567890", "9007199254740993", "-5e-324", "1.7976931348623157e308", "1E+2"),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

const stringText = fc.oneof(
  { weight: 6, arbitrary: fc.string().map((s) => JSON.stringify(s)) },
  { weight: 3, arbitrary: fc.string({ unit: "binary" }).map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: fc.constantFrom('"\\u0000"', '"\\ud800"', '"\\udfff\\ud800"', '"</script><script>"', '"\\u2028\\u2029"', '"%s%n%x"', '"${7*7}"') },
);

/** Huge strings, well under the 1 MiB body limit, so the runtime (not the limit) must cope. */
const hugeStringText = fc.integer({ min: 10_000, max: 64_000 }).map((n) => JSON.stringify("x".repeat(n)));

const keyText = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) }, { weight: 3, arbitrary: fc.string() }).map((k) => JSON.stringify(k));

/** Nesting far deeper than any schema expects; within the body limit. */
const deepText = fc.tuple(fc.integer({ min: 500, max: 20_000 }), fc.boolean(), fc.constantFrom("1", "1e999", '"x"')).map(([depth, arrays, leaf]) =>
  arrays ? "[".repeat(depth) + leaf + "]".repeat(depth) : '{"a":'.repeat(depth) + leaf + "}".repeat(depth),
);

/** Prototype-pollution payloads, as JSON.parse turns them into own keys. */
const pollutionText = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"__proto__":{"__proto__":{"polluted":true}}}',
  '{"a":{"__proto__":{"polluted":true,"toString":"x"}}}',
);

const valueText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.constantFrom("null", "true", "false"), numberText, stringText),
    fc.array(tie("value"), { maxLength: 5 }).map((items) => `[${items.join(",")}]`),
    fc.array(fc.tuple(keyText, tie("value")), { maxLength: 6 }).map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(",")}}`),
  ),
})).value;

/** An `arguments` object as JSON text; now and then not an object at all (the protocol must refuse it). */
export const hostileArgumentsText: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.array(fc.tuple(keyText, fc.oneof({ weight: 30, arbitrary: valueText }, { weight: 1, arbitrary: deepText }, { weight: 1, arbitrary: hugeStringText }, { weight: 2, arbitrary: pollutionText })), { maxLength: 6 }).map(
    (entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(",")}}`,
  ) },
  { weight: 2, arbitrary: pollutionText },
  // Duplicate keys: JSON.parse keeps the last; nothing may key on the first.
  { weight: 1, arbitrary: fc.tuple(valueText, valueText).map(([a, b]) => `{"dup":${a},"dup":${b}}`) },
  { weight: 1, arbitrary: fc.oneof(valueText, deepText, hugeStringText) },
);

class Money {
  constructor(readonly cents: number) {}
}

function throwing(): never {
  throw new Error(`${SENTINEL}: getter`);
}

/**
 * A value built only when a call is made. fast-check inspects what it generates (clone hooks), and a proxy whose
 * every trap throws must meet the runtime, not the generator.
 */
export class Lazy {
  constructor(readonly make: () => unknown) {}
}

/** Builds a generated in-process argument: Lazy values made, plain containers rebuilt with own keys only. */
export function materialize(recipe: unknown): unknown {
  if (recipe instanceof Lazy) return recipe.make();
  if (Array.isArray(recipe)) return recipe.map(materialize);
  if (typeof recipe !== "object" || recipe === null) return recipe;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(recipe)) {
    Object.defineProperty(out, key, { value: materialize((recipe as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** JavaScript-only hostile values for in-process tools. */
const jsOnly: fc.Arbitrary<Lazy> = fc.constantFrom<() => unknown>(
  () => Number.NaN,
  () => Number.NEGATIVE_INFINITY,
  () => 10n ** 30n,
  () => Symbol("s"),
  () => () => SENTINEL,
  () => undefined,
  () => new Date(Number.NaN),
  () => new Map([["k", 1]]),
  () => new Set([1]),
  () => new Money(5),
  () => new Uint8Array(16),
  () => Object.create(null),
  () => Object.assign(Object.create(null), JSON.parse('{"__proto__":{"polluted":true}}') as object),
  () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    return cycle;
  },
  () => Object.defineProperty({}, "boom", { get: throwing, enumerable: true }),
  () => new Proxy({}, { ownKeys: throwing, get: throwing, getPrototypeOf: throwing, has: throwing, getOwnPropertyDescriptor: throwing }),
  () => ({ toJSON: throwing }),
  () => ({ then: (resolve: (v: unknown) => void) => resolve(SENTINEL) }),
  () => ({
    get then() {
      return throwing();
    },
  }),
  () => Object.freeze({ frozen: true }),
  // eslint-disable-next-line no-sparse-arrays
  () => [1, , 3],
  () => new Array(100_000).fill(0),
  () => {
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = { d: deep };
    return deep;
  },
  () => {
    let deep: unknown = Number.NaN;
    for (let i = 0; i < 3_000; i++) deep = [deep];
    return deep;
  },
).map((make) => new Lazy(make));

const jsonValue = valueText.map((text) => new Lazy(() => JSON.parse(text) as unknown));

/** Tool arguments as in-process recipes (see `materialize`): JSON-derived hostile objects, JavaScript-only values, or both mixed. */
export const hostileArgumentsValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileArgumentsText.map((text) => new Lazy(() => JSON.parse(text) as unknown)) },
  { weight: 2, arbitrary: jsOnly },
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...DANGEROUS_KEYS, "a", "b"), fc.oneof(jsOnly, jsonValue), { maxKeys: 5 }) },
);
