// Inputs no snapshot can bind (SI-6): cycles, Proxies, reads that throw or never end, nesting and sizes past any
// stack or budget. Each case builds a fresh value and counts the reads its own code sees (getters, toJSON calls,
// Proxy traps), so a test can hold the refusal to a number of reads linear in the input, without a clock.

export type Hostile = {
  /** The value, and how many of its own reads (getter, toJSON, trap) ran so far. */
  input: unknown;
  reads: () => number;
  /** The most reads a linear refusal may take: a small multiple of the input's size or of the walk's bounds. */
  maxReads: number;
  /** Where the refusal must point (keys only); `undefined` when any path will do. */
  path?: string[];
};

type HostileCase = [name: string, make: () => Hostile];

/** The bounds the walk keeps (packages/core/src/internal/input-limits.ts), restated as the behaviour under test. */
const DEPTH_LIMIT = 1_000;
const VALUE_LIMIT = 1_000_000;

const counter = () => {
  let n = 0;
  return { tick: () => void n++, reads: () => n };
};

/** A Proxy counting every trap its handler sees. */
function countingProxy<T extends object>(target: T, extra: ProxyHandler<T> = {}): { proxy: T; traps: () => number } {
  const c = counter();
  const handler = new Proxy(extra, {
    get(own, trap: string | symbol) {
      c.tick();
      const defined = Reflect.get(own, trap) as unknown;
      return defined ?? (Reflect as unknown as Record<string | symbol, unknown>)[trap];
    },
  });
  return { proxy: new Proxy(target, handler), traps: c.reads };
}

/** A Proxy every trap of which throws another such Proxy: inspecting what was thrown throws again, without end. */
export function hostileThrowable(): object {
  const again = () => {
    throw hostileThrowable();
  };
  return new Proxy({}, { get: again, has: again, getPrototypeOf: again, ownKeys: again, getOwnPropertyDescriptor: again });
}

/** `depth` levels of `{ d: … }` or `[…]`, built without recursion. */
export function nested(depth: number, kind: "object" | "array", leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = kind === "object" ? { d: value } : [value];
  return value;
}

/** A chain of `length` objects whose `next` getters are counted; the last one leads back to the first. */
function countedCycle(length: number): Hostile {
  const c = counter();
  const nodes = Array.from({ length }, (_, i) => ({ i }) as Record<string, unknown>);
  nodes.forEach((node, i) =>
    Object.defineProperty(node, "next", { enumerable: true, get: () => (c.tick(), nodes[(i + 1) % length]) }),
  );
  return { input: { head: nodes[0] }, reads: c.reads, maxReads: 2 * length, path: ["head", ...Array.from({ length }, () => "next")] };
}

export const HOSTILE_INPUTS: HostileCase[] = [
  [
    "an object that contains itself",
    () => {
      const self: Record<string, unknown> = { amount: 1 };
      self.self = self;
      return { input: { order: self }, reads: () => 0, maxReads: 0, path: ["order", "self"] };
    },
  ],
  [
    "an array that contains itself",
    () => {
      const list: unknown[] = [1];
      list.push(list);
      return { input: { list }, reads: () => 0, maxReads: 0, path: ["list", "1"] };
    },
  ],
  ["a cycle through 500 getters, each read at most twice", () => countedCycle(500)],
  [
    "a Map holding itself",
    () => {
      const map = new Map<string, unknown>();
      map.set("self", map);
      return { input: { map }, reads: () => 0, maxReads: 0 };
    },
  ],
  [
    "a toJSON that leads back to its own object",
    () => {
      const c = counter();
      const loop: Record<string, unknown> = {};
      loop.toJSON = () => (c.tick(), { again: loop });
      return { input: { loop }, reads: c.reads, maxReads: DEPTH_LIMIT + 2 };
    },
  ],
  [
    "a top-level Proxy",
    () => {
      const { proxy, traps } = countingProxy({ amount: 1 });
      return { input: proxy, reads: traps, maxReads: 0, path: [] };
    },
  ],
  [
    "a Proxy nested three levels down",
    () => {
      const { proxy, traps } = countingProxy([1, 2]);
      return { input: { a: { b: { c: proxy } } }, reads: traps, maxReads: 0, path: ["a", "b", "c"] };
    },
  ],
  [
    "a revoked Proxy",
    () => {
      const { proxy, revoke } = Proxy.revocable({ amount: 1 }, {});
      revoke();
      return { input: { order: proxy }, reads: () => 0, maxReads: 0, path: ["order"] };
    },
  ],
  [
    "a Proxy whose ownKeys trap throws",
    () => {
      const { proxy, traps } = countingProxy({ amount: 1 }, { ownKeys: () => { throw new Error("ownKeys trap"); } });
      return { input: { order: proxy }, reads: traps, maxReads: 0, path: ["order"] };
    },
  ],
  [
    "a getter that throws",
    () => {
      const c = counter();
      const order = { amount: 1, get note(): string { c.tick(); throw new Error("getter"); } };
      return { input: { order }, reads: c.reads, maxReads: 1, path: ["order", "note"] };
    },
  ],
  [
    "a getter that throws a Proxy whose every trap throws another",
    () => {
      const c = counter();
      const order = { get note(): string { c.tick(); throw hostileThrowable(); } };
      return { input: { order }, reads: c.reads, maxReads: 1, path: ["order", "note"] };
    },
  ],
  [
    "a toJSON that throws",
    () => {
      const c = counter();
      return { input: { when: { toJSON: () => (c.tick(), (() => { throw new Error("toJSON"); })()) } }, reads: c.reads, maxReads: 1, path: ["when"] };
    },
  ],
  [
    "a getter that returns a fresh object on every read, without end",
    () => {
      const c = counter();
      const node = (): object => ({ get next() { c.tick(); return node(); } });
      return { input: node(), reads: c.reads, maxReads: DEPTH_LIMIT + 2 };
    },
  ],
  [
    "two getters per level returning fresh objects, without end",
    () => {
      const c = counter();
      const node = (): object => ({ get left() { c.tick(); return node(); }, get right() { c.tick(); return node(); } });
      return { input: node(), reads: c.reads, maxReads: DEPTH_LIMIT + 2 };
    },
  ],
  [
    "a toJSON that returns a fresh object with a toJSON of its own, without end",
    () => {
      const c = counter();
      const node = (): object => ({ toJSON: () => (c.tick(), { inner: node() }) });
      return { input: { root: node() }, reads: c.reads, maxReads: DEPTH_LIMIT + 2 };
    },
  ],
  ["100 000 levels of nested objects", () => ({ input: nested(100_000, "object"), reads: () => 0, maxReads: 0 })],
  ["100 000 levels of nested arrays", () => ({ input: { deep: nested(100_000, "array") }, reads: () => 0, maxReads: 0 })],
  [
    "a sparse array of length 2³² − 1 whose first index is a counted getter",
    () => {
      const c = counter();
      const sparse: unknown[] = [];
      sparse.length = 2 ** 32 - 1;
      Object.defineProperty(sparse, 0, { enumerable: true, configurable: true, get: () => (c.tick(), 1) });
      return { input: { sparse }, reads: c.reads, maxReads: 0, path: ["sparse"] };
    },
  ],
];

/**
 * 48 objects, each holding the next one twice: 96 edges, 2⁴⁸ positions once written out. Its getters count the
 * reads, which the value budget must end.
 */
export function sharedLevels(levels = 48): Hostile {
  const c = counter();
  let next: unknown = 1;
  for (let i = 0; i < levels; i++) {
    const below = next;
    next = Object.defineProperties({}, {
      a: { enumerable: true, get: () => (c.tick(), below) },
      b: { enumerable: true, get: () => (c.tick(), below) },
    });
  }
  return { input: next, reads: c.reads, maxReads: VALUE_LIMIT + 1 };
}
