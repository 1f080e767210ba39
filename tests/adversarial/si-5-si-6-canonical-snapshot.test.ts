// SI-5 / SI-6: the audited hash against what executes, through a real runtime, for hostile input shapes (getters,
// toJSON, resized arrays, patched prototypes, Proxies, deep nesting). Each case runs with and without an audit sink
// and checks that the audited hash is sha256 of the canonical JSON of what the handler received, and that it equals
// the hash the un-audited runtime binds for the same input. (Written against a one-walk snapshot-and-hash that
// issue 28 tried and withdrew after a second attack round found prototype-chain breaks it could not close cheaply.)
import {
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type ApprovalCoordinator,
  type ExecutionResult,
} from "@orpc-agent/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { hashCanonicalInputAsync as hashCanonicalInput } from "../../packages/core/src/approvals/hash.js";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, dana, meta, mo } from "./support/runtime.js";

// The un-audited runtimes warn that models reach writes with no sink, on purpose.
captureStartupWarnings(["W3"]);

type Run = { result: ExecutionResult; received: unknown[]; approverHash?: string; approverInput?: unknown; events: AgentAuditEvent[]; executed?: string };

function capability(schema: z.ZodType | undefined, received: unknown[]) {
  const agent = base.meta({ agent: meta({ approval: { required: true } }) });
  // No schema (or z.any) hands the caller's own object, getters and all, to the snapshot walk.
  const withInput = schema === undefined ? agent : agent.input(schema);
  return withInput.handler(({ input }) => (received.push(input), "done"));
}

function runtimeFor(schema: z.ZodType | undefined, sink: boolean, approvals: { coordinator: ApprovalCoordinator } | "inline") {
  const received: unknown[] = [];
  const events: AgentAuditEvent[] = [];
  const run: Omit<Run, "result"> = { received, events };
  const governance = defineGovernance({ registry: createCapabilityRegistry({ op: capability(schema, received) }), policies: [] });
  const runtime = createAgentRuntime({
    governance,
    ...(sink ? { audit: (e: AgentAuditEvent) => void events.push(e) } : {}),
    approvals:
      approvals === "inline"
        ? { handler: async (req) => ((run.approverHash = req.inputHash), (run.approverInput = req.input), { status: "approved", approver: mo }) }
        : approvals,
  });
  return { runtime, run };
}

async function invokeOnce(make: () => unknown, schema: z.ZodType | undefined, sink: boolean, restore: () => void): Promise<Run> {
  const { runtime, run } = runtimeFor(schema, sink, "inline");
  try {
    const result = await runtime.invoke("op", make(), { actor: dana, context: {} });
    await runtime.drainAudit();
    // Hashed before `restore`, in the world the walk ran in (a getter may have patched a prototype).
    const executed = run.received.length === 1 ? await hashCanonicalInput(run.received[0]).catch(() => undefined) : undefined;
    return { ...run, result, executed };
  } finally {
    restore();
  }
}

const hashesOf = (events: AgentAuditEvent[]) => [...new Set(events.map((e) => e.inputHash).filter((h) => h !== undefined))];
const codeOf = (r: ExecutionResult) => (r.status === "failed" || r.status === "cancelled" ? r.error.code : r.status);

/** Same structure, prototypes, frozenness, own keys (in order) and leaves, as the property test compares. */
function expectSameShape(a: unknown, b: unknown): void {
  if (typeof a !== "object" || a === null) return void expect(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))).toBe(true);
  expect(typeof b).toBe("object");
  expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b as object));
  expect(Object.isFrozen(a)).toBe(Object.isFrozen(b));
  if (a instanceof Date) return void expect((b as Date).getTime()).toBe(a.getTime());
  expect(Reflect.ownKeys(a)).toEqual(Reflect.ownKeys(b as object));
  if (a instanceof Map || a instanceof Set || ArrayBuffer.isView(a)) return;
  for (const key of Object.keys(a)) expectSameShape((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
}

async function expectBound(make: () => unknown, schema?: z.ZodType, restore: () => void = () => {}): Promise<void> {
  const audited = await invokeOnce(make, schema, true, restore);
  const plain = await invokeOnce(make, schema, false, restore);
  expect(codeOf(audited.result)).toBe(codeOf(plain.result));
  const hashes = hashesOf(audited.events);
  expect(hashes.length).toBeLessThanOrEqual(1);
  if (audited.result.status !== "completed") return void expect(audited.received).toEqual([]);
  // One frozen value for the approver and the handler.
  expect(audited.received).toHaveLength(1);
  expect(audited.approverInput).toBe(audited.received[0]);
  expect(audited.executed).toBeDefined();
  expect(hashes).toEqual([audited.executed]);
  expect(audited.approverHash).toBe(audited.executed);
  expect(plain.approverHash).toBe(plain.executed);
  expect(plain.executed).toBe(audited.executed);
  expectSameShape(audited.received[0], plain.received[0]);
}

const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { k: nest(depth - 1, leaf), z: depth });
const nestArrays = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : [nestArrays(depth - 1, leaf), depth]);
function withOwn(entries: [string, unknown][], proto: object | null = Object.prototype): Record<string, unknown> {
  const out = Object.create(proto) as Record<string, unknown>;
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}
class Money {
  constructor(readonly cents: number) {}
}

const cases: [string, () => unknown][] = [
  ["plain JSON", () => ({ b: 1, a: [true, null, "x"], c: { y: 2, x: 1 } })],
  ["integer-like keys whose enumeration order differs from insertion", () => ({ b: 1, "10": 1, "9": 2, a: { "2": 0, "1": 1, "01": 2 } })],
  ["keys sorting differently by code unit and locale", () => ({ é: 1, z: 2, "😀": 3, "\uffff": 4, E: 5, e: 6, "": 7 })],
  ["lone surrogates and separators in keys and values", () => ({ "\ud800": "\udc00", "\u2028": "\u2029", k: "\ud83d" })],
  ["-0, 1e21, 5e-7 and max-safe numbers", () => ({ n: -0, big: 1e21, small: 5e-7, max: Number.MAX_SAFE_INTEGER, arr: [-0, 1e-7] })],
  ["sparse arrays and arrays with extra own props", () => Object.assign([1, , 3, , ,], { extra: 5, "-1": 6 })],
  ["undefined members and elements", () => ({ a: undefined, b: [undefined, 1], c: { d: undefined } })],
  ["null-prototype objects", () => withOwn([["b", 1], ["a", withOwn([["y", 2]], null)]], null)],
  ["an own __proto__ key", () => withOwn([["__proto__", { amount: 1 }], ["a", 1]])],
  ["an own __proto__ key on a null-prototype object", () => withOwn([["__proto__", [1]], ["0", 2]], null)],
  ["a top-level toJSON", () => ({ amount: 1e6, toJSON: (key: string) => ({ amount: 1, key }) })],
  ["a nested toJSON receiving its key", () => ({ a: { toJSON: (key: string) => ({ key }) }, b: [{ toJSON: (key: string) => key }] })],
  ["a toJSON returning an object with its own toJSON", () => ({ x: { toJSON: () => ({ v: 1, toJSON: () => ({ v: 2 }) }) } })],
  ["an own non-function toJSON", () => ({ toJSON: 5, a: { toJSON: null } })],
  ["Dates at the top and nested", () => ({ when: new Date(Date.UTC(2027, 0, 1)), list: [new Date(0)] })],
  ["a top-level Date", () => new Date(Date.UTC(2027, 0, 1))],
  ["a Map (unhashable)", () => ({ m: new Map([["a", 1]]) })],
  ["a class instance (unhashable)", () => ({ m: new Money(5) })],
  ["a typed array (unhashable)", () => ({ bytes: new Uint8Array([1, 2]) })],
  ["a function value (unhashable)", () => ({ f: () => 1 })],
  ["a bigint (unhashable)", () => ({ n: 1n })],
  ["NaN (unhashable)", () => ({ n: Number.NaN })],
  ["nesting at 31 levels", () => nest(31, 1)],
  ["nesting at 32 levels", () => nest(32, 1)],
  ["nesting at 33 levels", () => nest(33, 1)],
  ["array nesting at 32 and 33 levels", () => ({ a: nestArrays(32, "x"), b: nestArrays(33, "y") })],
  ["nesting at 40 levels with a toJSON and a Date past the limit", () => nest(40, { toJSON: () => new Date(0), d: 1 })],
  ["a deep subtree inside a plain one", () => ({ shallow: { b: 1, a: 2 }, deep: nest(35, [1, { z: 1, a: 2 }]), tail: "t" })],
  ["frozen and sealed inputs", () => Object.freeze({ a: Object.seal({ b: 1 }), c: Object.freeze([1, 2]) })],
  ["ten thousand keys in reverse order", () => Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${10_000 - i}`, i]))],
  [
    "a getter that answers differently on its second read",
    () => {
      let reads = 0;
      return { a: { get amount() { return ++reads === 1 ? 50 : 50_000; } } };
    },
  ],
  [
    "a getter that mutates a visited sibling and a not-yet-visited key",
    () => {
      const raw: Record<string, unknown> = { a: 1, b: { x: 1 }, c: [1], d: 0 };
      Object.defineProperty(raw, "b", { enumerable: true, get: () => ((raw.a = 999), ((raw.c as number[])[0] = 7), (raw.d = { toJSON: () => "late" }), { x: 1 }) });
      return raw;
    },
  ],
  [
    "a getter that deletes a later key and adds a new one",
    () => {
      const raw: Record<string, unknown> = { b: 2, c: 3 };
      Object.defineProperty(raw, "a", { enumerable: true, configurable: true, get: () => (delete raw.c, (raw.zz = 1), 1) });
      return raw;
    },
  ],
  [
    "a getter that gives a later sibling a Date prototype (fails closed)",
    () => {
      const later = { y: 1 };
      return { get a() { Object.setPrototypeOf(later, Date.prototype); return 1; }, b: later };
    },
  ],
  [
    "a getter that throws (fails closed)",
    () => ({ a: 1, get b(): number { throw new Error("boom"); } }),
  ],
  [
    "an array element getter that grows its array",
    () => {
      const arr: unknown[] = [0, 1];
      Object.defineProperty(arr, 0, { enumerable: true, configurable: true, get: () => (arr.push("more"), "first") });
      return { arr };
    },
  ],
  ["a top-level Proxy", () => new Proxy({ a: 1 }, {})],
  ["a Proxy at depth 5", () => nest(5, new Proxy([1], {}))],
  ["a Proxy past the depth limit", () => nest(40, new Proxy({ a: 1 }, {}))],
];

describe("the audited hash binds what executes, for every input shape (SI-5, SI-6)", () => {
  it.each(cases)("SI-5 SI-6: %s", async (_name, make) => {
    await expectBound(make);
  });

  it("SI-5 SI-6: z.any() passes a getter through; the walk reads it once", async () => {
    await expectBound(() => {
      let reads = 0;
      return { v: { get n() { return ++reads; } } };
    }, z.object({ v: z.any() }));
  });

  it("SI-5 SI-6: a transform whose output has getters, a toJSON and a Date", async () => {
    let n = 0;
    const make = () => ((n = 0), { a: 3 });
    const schema = z.object({ a: z.number() }).transform(({ a }) => ({
      get a() { return a + ++n; },
      nested: { toJSON: () => ({ a }) },
      when: new Date(a),
      "10": 1,
      "9": 2,
    }));
    await expectBound(make, schema);
  });

  it("SI-5 SI-6: defaults and passthrough unknown with odd keys", async () => {
    const schema = z.looseObject({ seat: z.string().default("s1"), meta: z.unknown() });
    await expectBound(() => ({ meta: withOwn([["__proto__", 1], ["é", { toJSON: () => -0 }]]), "😀": 1, e: 2 }), schema);
  });
});

describe("patched prototypes (SI-5, SI-6)", () => {
  const added: [object, string][] = [];
  // Each run patches afresh (in `make`, or from a getter mid-walk) and is restored before any assertion.
  const unpatch = () => {
    for (const [proto, key] of added.splice(0)) delete (proto as Record<string, unknown>)[key];
  };
  afterEach(unpatch);
  const patch = (proto: object, key: string, descriptor: PropertyDescriptor) => {
    added.push([proto, key]);
    Object.defineProperty(proto, key, { configurable: true, ...descriptor });
  };
  const toJSON = (value: unknown): PropertyDescriptor => ({ writable: true, value: () => value });

  it("SI-5 SI-6: Object.prototype.toJSON patched before the call", async () => {
    await expectBound(() => (patch(Object.prototype, "toJSON", toJSON({ patched: true })), { a: { b: 1 }, c: [1] }), undefined, unpatch);
  });

  it("SI-5 SI-6: Array.prototype.toJSON patched before the call", async () => {
    await expectBound(() => (patch(Array.prototype, "toJSON", toJSON("patched")), { a: [1, [2]], b: 1 }), undefined, unpatch);
  });

  it("SI-5 SI-6: Array.prototype.toJSON patched by a getter after an earlier array was walked", async () => {
    const make = () => ({ a: [1], get b() { return patch(Array.prototype, "toJSON", toJSON("patched")), 2; } });
    await expectBound(make, undefined, unpatch);
  });

  it("SI-5 SI-6: Object.prototype.toJSON patched by a getter after the outer object was entered", async () => {
    const make = () => ({ a: { x: 1 }, get b() { return patch(Object.prototype, "toJSON", toJSON("patched")), 2; } });
    await expectBound(make, undefined, unpatch);
  });

  it("SI-5 SI-6: a setter on Object.prototype swallows a key the copy would have", async () => {
    const make = () => (patch(Object.prototype, "amount", { set() {}, get: () => undefined }), withOwn([["amount", 1e6], ["b", 1]]));
    await expectBound(make, undefined, unpatch);
  });
});

describe("an array shrunk while it is walked (SI-5)", () => {
  const shrinking = () => {
    const items: unknown[] = ["a", "b", "c"];
    // Reading element 0 truncates the array: the loop stops, the copy keeps its first length with holes.
    Object.defineProperty(items, 0, { enumerable: true, configurable: true, get: () => ((items.length = 1), "a") });
    return { items };
  };

  it("SI-5: the audited hash is sha256 of canonicalJson of the array the handler received", async () => {
    await expectBound(shrinking);
  });

  it("SI-5: the stored approval's input hashes to its inputHash, and resume runs a value of that hash", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime, run } = runtimeFor(undefined, true, { coordinator });
    const approval = approvalOf(await runtime.invoke("op", shrinking(), { actor: dana, context: {} }));
    // R5 on resume recomputes exactly this; a mismatch makes the runtime's own approval unusable.
    expect(await hashCanonicalInput(approval.input)).toBe(approval.inputHash);
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    await runtime.drainAudit();
    expect(result.status).toBe("completed");
    expect(hashesOf(run.events)).toEqual([approval.inputHash]);
    expect(await hashCanonicalInput(run.received[0])).toBe(approval.inputHash);
  });
});

describe("approvals resumed later bind the same hash (SI-5)", () => {
  const resumable = cases.filter(([name]) => !/Proxy|unhashable|fails closed/.test(name));

  it.each(resumable)("SI-5: %s", async (_name, make) => {
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime, run } = runtimeFor(undefined, true, { coordinator });
    const first = await runtime.invoke("op", make(), { actor: dana, context: {} });
    const approval = approvalOf(first);
    const requested = [...run.events];
    expect(hashesOf(requested)).toEqual([approval.inputHash]);
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const result = await runtime.resume(approval.id, { context: {} });
    await runtime.drainAudit();
    expect(result.status).toBe("completed");
    expect(hashesOf(run.events)).toEqual([approval.inputHash]);
    expect(run.received).toHaveLength(1);
    expect(await hashCanonicalInput(run.received[0])).toBe(approval.inputHash);
  });
});
