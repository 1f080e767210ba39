import { describe, expect, it } from "vitest";
import { canonicalJson, UnserializableInputError } from "../../src/approvals/canonical-json.js";
import { hashCanonicalInput } from "../../src/approvals/hash.js";

function unserializable(value: unknown): UnserializableInputError {
  try {
    canonicalJson(value);
  } catch (error) {
    expect(error).toBeInstanceOf(UnserializableInputError);
    return error as UnserializableInputError;
  }
  throw new Error("expected canonicalJson to throw");
}

describe("canonicalJson", () => {
  it("SI-5: is independent of key insertion order, at every depth", () => {
    const a = { b: 1, a: { y: [1, 2], x: "s" } };
    const b = { a: { x: "s", y: [1, 2] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"x":"s","y":[1,2]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(hashCanonicalInput(a)).toBe(hashCanonicalInput(b));
  });

  it("SI-5: is sensitive to every value, including types and array order", () => {
    const base = canonicalJson({ amount: 25, to: "acct_1", tags: ["a", "b"] });
    expect(canonicalJson({ amount: 26, to: "acct_1", tags: ["a", "b"] })).not.toBe(base);
    expect(canonicalJson({ amount: "25", to: "acct_1", tags: ["a", "b"] })).not.toBe(base);
    expect(canonicalJson({ amount: 25, to: "acct_2", tags: ["a", "b"] })).not.toBe(base);
    expect(canonicalJson({ amount: 25, to: "acct_1", tags: ["b", "a"] })).not.toBe(base);
    expect(canonicalJson({ amount: 25, to: "acct_1", tags: ["a", "b"], extra: null })).not.toBe(base);
  });

  it("SI-5: drops undefined-valued properties", () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ only: undefined })).toBe("{}");
  });

  it("SI-5: writes undefined array elements and holes as null", () => {
    expect(canonicalJson([1, undefined, , 4])).toBe("[1,null,null,4]");
  });

  it("writes primitives without whitespace, as JSON does", () => {
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson(true)).toBe("true");
    expect(canonicalJson(false)).toBe("false");
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson(1e21)).toBe("1e+21");
    expect(canonicalJson(0.1)).toBe("0.1");
    expect(canonicalJson('quote " slash \\ newline \n \u0001 é')).toBe(JSON.stringify('quote " slash \\ newline \n \u0001 é'));
    expect(canonicalJson({ "key with \"quote\"": [{}, []] })).toBe('{"key with \\"quote\\"":[{},[]]}');
  });

  it("sorts keys by UTF-16 code units (the default JS sort), not numerically or by locale", () => {
    expect(canonicalJson({ b: 1, B: 2, "10": 3, "9": 4, é: 5, a: 6 })).toBe('{"10":3,"9":4,"B":2,"a":6,"b":1,"é":5}');
  });

  it("SI-5: honours toJSON, writing a Date as its ISO string", () => {
    const at = new Date("2030-01-02T03:04:05.006Z");
    expect(canonicalJson(at)).toBe('"2030-01-02T03:04:05.006Z"');
    expect(canonicalJson({ at })).toBe('{"at":"2030-01-02T03:04:05.006Z"}');
    expect(canonicalJson({ at })).toBe(canonicalJson({ at: "2030-01-02T03:04:05.006Z" }));
  });

  it("canonicalizes a toJSON result again: keys sorted, nested toJSON honoured, its functions refused", () => {
    class Money {
      constructor(readonly amount: number, readonly currency: string) {}
      toJSON() {
        return { currency: this.currency, amount: this.amount, at: new Date(0), dropped: undefined };
      }
    }
    expect(canonicalJson({ price: new Money(5, "EUR") })).toBe(
      '{"price":{"amount":5,"at":"1970-01-01T00:00:00.000Z","currency":"EUR"}}',
    );
    expect(canonicalJson({ x: { toJSON: (key: string) => `key=${key}` } })).toBe('{"x":"key=x"}');
    expect(canonicalJson([{ toJSON: (key: string) => `key=${key}` }])).toBe('["key=0"]');
    expect(canonicalJson({ gone: { toJSON: () => undefined }, kept: 1 })).toBe('{"kept":1}');
    expect(unserializable({ x: { toJSON: () => ({ f: () => 1 }) } }).reason).toBe("function value");
    expect(unserializable({ x: { toJSON: () => new Map() } }).reason).toMatch(/non-plain object/);
  });

  it("accepts null-prototype objects like plain ones", () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 2;
    bare.a = { c: null };
    expect(canonicalJson(bare)).toBe('{"a":{"c":null},"b":2}');
  });

  it("ignores symbol keys", () => {
    expect(canonicalJson({ a: 1, [Symbol("hidden")]: "x" })).toBe('{"a":1}');
  });

  it("accepts the same object twice when it is shared, not cyclic", () => {
    const shared = { v: 1 };
    expect(canonicalJson({ a: shared, b: [shared, shared] })).toBe('{"a":{"v":1},"b":[{"v":1},{"v":1}]}');
  });

  it("SI-5: refuses a function-valued property instead of dropping it, and names its path", () => {
    const error = unserializable({ order: { id: "o1", run: () => 1 } });
    expect(error.reason).toBe("function value");
    expect(error.path).toEqual(["order", "run"]);
    expect(error.message).toContain("$.order.run");
    expect(unserializable([1, () => 1]).path).toEqual([1]);
    expect(hashCanonicalInput({ run() {} })).toBeUndefined();
  });

  it("SI-5: refuses symbol values in properties and elements", () => {
    expect(unserializable({ s: Symbol("x") }).reason).toBe("symbol value");
    expect(unserializable([Symbol("x")]).reason).toBe("symbol value");
  });

  it("SI-5: refuses bigint", () => {
    expect(unserializable(10n).reason).toBe("bigint");
    expect(unserializable({ n: 10n }).path).toEqual(["n"]);
  });

  it("SI-5: refuses NaN and infinities", () => {
    expect(unserializable(Number.NaN).reason).toMatch(/non-finite/);
    expect(unserializable({ x: Number.POSITIVE_INFINITY }).reason).toMatch(/non-finite/);
    expect(unserializable([Number.NEGATIVE_INFINITY]).reason).toMatch(/non-finite/);
  });

  it("SI-5: refuses top-level undefined and a top-level function", () => {
    expect(unserializable(undefined).reason).toBe("undefined");
    expect(unserializable(() => 1).reason).toBe("function value");
  });

  it("SI-5: refuses Map, Set, class instances and other non-plain objects without toJSON", () => {
    class Order {
      id = "o1";
    }
    expect(unserializable(new Map([["a", 1]])).reason).toBe("non-plain object (Map)");
    expect(unserializable({ s: new Set([1]) }).reason).toBe("non-plain object (Set)");
    expect(unserializable({ o: new Order() }).reason).toBe("non-plain object (Order)");
    expect(unserializable(new Uint8Array([1])).reason).toMatch(/non-plain object/);
    expect(unserializable(new Number(1)).reason).toMatch(/non-plain object/);
    expect(unserializable(/re/).reason).toMatch(/non-plain object/);
  });

  it("SI-5: refuses cycles through objects and arrays", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(unserializable(cyclic).reason).toBe("cycle");
    expect(unserializable(cyclic).path).toEqual(["self"]);
    const list: unknown[] = [];
    list.push({ back: list });
    expect(unserializable(list).reason).toBe("cycle");
  });

  it("turns a throwing getter or toJSON into an unserializable input, keeping the cause", () => {
    const boom = new Error("boom");
    const error = unserializable({
      get x() {
        throw boom;
      },
    });
    expect(error.cause).toBe(boom);
    expect(unserializable({ toJSON: () => { throw boom; } }).cause).toBe(boom);
  });

  it("SI-5: the hash of a known value is pinned (golden)", () => {
    const value = { c: { z: null, y: "x\n" }, b: 2, a: [1, "é", null, true], skipped: undefined };
    expect(canonicalJson(value)).toBe('{"a":[1,"é",null,true],"b":2,"c":{"y":"x\\n","z":null}}');
    // sha256 of the UTF-8 bytes above, computed independently with `sha256sum`.
    expect(hashCanonicalInput(value)).toBe("25926dd0e7930687f66fb833ddffd14e94af9a68c9ac07c63b5c43022a72a30e");
    expect(hashCanonicalInput(new Date("2030-01-02T03:04:05.006Z"))).toBe(
      "5dd92c6a72b8000cf3addfe175c26437e093b0026eced53a36bb6880c5bb151a",
    );
  });
});
