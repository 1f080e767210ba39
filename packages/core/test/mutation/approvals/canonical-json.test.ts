// Raised from the mutation run (packages/core/MUTATION.md): the refusal reasons and paths of canonical JSON,
// and JSON.stringify's once-per-position toJSON rule, pinned by behaviour.
import { describe, expect, it } from "vitest";
import { canonicalJson, UnserializableInputError } from "../../../src/approvals/canonical-json.js";

function refusal(value: unknown): UnserializableInputError {
  try {
    canonicalJson(value);
  } catch (error) {
    expect(error).toBeInstanceOf(UnserializableInputError);
    return error as UnserializableInputError;
  }
  throw new Error("expected canonicalJson to refuse the value");
}

describe("canonicalJson refusals", () => {
  it("names itself UnserializableInputError and locates the value with a readable path", () => {
    const error = refusal({ order: { lines: [{ sku: "a" }, { sku: "b", at: () => 1 }] } });
    expect(error.name).toBe("UnserializableInputError");
    expect(error.reason).toBe("function value");
    expect(error.path).toEqual(["order", "lines", 1, "at"]);
    expect(error.message).toBe("Input has no canonical JSON form: function value at $.order.lines[1].at.");
  });

  it("reports a top-level refusal at the root path $", () => {
    const error = refusal(undefined);
    expect(error.reason).toBe("undefined");
    expect(error.path).toEqual([]);
    expect(error.message).toBe("Input has no canonical JSON form: undefined at $.");
  });

  it("SI-5: a throwing getter is refused with the getter's own error as cause, inside arrays and objects", () => {
    const boom = new Error("getter exploded");
    const hostile = {
      get value(): never {
        throw boom;
      },
    };
    for (const value of [[1, hostile], { nested: hostile }]) {
      const error = refusal(value);
      expect(error.reason).toBe("reading the value threw");
      expect(error.cause).toBe(boom);
      expect(error.path).toEqual([]);
    }
  });

  it("names the class of a non-plain object, and nothing when there is no usable constructor name", () => {
    class Invoice {
      total = 1;
    }
    expect(refusal({ a: new Invoice() }).reason).toBe("non-plain object (Invoice)");
    expect(refusal({ a: new Map() }).reason).toBe("non-plain object (Map)");
    // A prototype chain without any constructor (Object.create of a null-prototype object).
    expect(refusal({ a: Object.create(Object.create(null)) }).reason).toBe("non-plain object");
    // A constructor whose name is empty or not a string names nothing.
    expect(refusal({ a: Object.create({ constructor: { name: "" } }) }).reason).toBe("non-plain object");
    expect(refusal({ a: Object.create({ constructor: { name: 42 } }) }).reason).toBe("non-plain object");
  });
});

describe("canonicalJson and toJSON", () => {
  it("passes toJSON the key of its position, as JSON.stringify does", () => {
    const keys: string[] = [];
    const probe = {
      toJSON(key: string) {
        keys.push(key);
        return 1;
      },
    };
    const value = { root: [probe], prop: probe };
    const viaStringify: string[] = [];
    JSON.stringify({ toJSON: (k: string) => (viaStringify.push(k), 0) });
    expect(canonicalJson(probe)).toBe("1");
    expect(canonicalJson(value)).toBe('{"prop":1,"root":[1]}');
    expect(keys).toEqual(["", "prop", "0"]);
    expect(viaStringify).toEqual([""]);
  });

  it("SI-5: calls toJSON once per position: what it returns is not converted again", () => {
    // JSON.stringify would not call the Date's toJSON here either; canonical JSON then refuses the Date.
    expect(refusal({ when: { toJSON: () => new Date(0) } }).reason).toBe("non-plain object (Date)");
    const nested = { toJSON: () => ({ toJSON: () => "inner" }) };
    const error = refusal(nested);
    expect(error.reason).toBe("function value");
    expect(error.path).toEqual(["toJSON"]);
  });
});
