import { describe, expect, it } from "vitest";
import { epochMs, instantColumn, instantParam, jsonColumn, jsonParam } from "../src/encoding.js";

describe("parameter encoding (postgres.md §3.2)", () => {
  it("sends JSON values as text, undefined as SQL NULL, and null as the JSON text null", () => {
    expect(jsonParam({ a: [1, "b"] })).toBe('{"a":[1,"b"]}');
    expect(jsonParam("abc")).toBe('"abc"');
    expect(jsonParam(null)).toBe("null");
    expect(jsonParam(undefined)).toBeNull();
    expect(jsonParam({ at: new Date("2030-01-01T00:00:00.000Z") })).toBe('{"at":"2030-01-01T00:00:00.000Z"}');
  });

  it("sends instants as ISO text", () => {
    expect(instantParam(new Date(Date.UTC(2001, 5, 1, 12, 0, 0, 7)))).toBe("2001-06-01T12:00:00.007Z");
  });
});

describe("result decoding (postgres.md §3.3)", () => {
  it("parses jsonb text exactly once: SQL NULL is absent, the text null is null, a JSON string stays a string", () => {
    expect(jsonColumn(null, "input")).toBeUndefined();
    expect(jsonColumn(undefined, "input")).toBeUndefined();
    expect(jsonColumn("null", "input")).toBeNull();
    expect(jsonColumn('"abc"', "input")).toBe("abc");
    expect(jsonColumn('"{\\"a\\":1}"', "input")).toBe('{"a":1}');
    expect(jsonColumn("[1,{\"b\":true}]", "input")).toEqual([1, { b: true }]);
  });

  it("refuses a jsonb column that a driver already parsed, instead of guessing", () => {
    expect(() => jsonColumn({ a: 1 }, "actor")).toThrow(/"actor" must be projected as text/);
  });

  it("revives epoch milliseconds, from a number or a numeric string, rounding float noise", () => {
    expect(instantColumn(1893456000123, "at").toISOString()).toBe("2030-01-01T00:00:00.123Z");
    expect(instantColumn(1893456000122.9999, "at").toISOString()).toBe("2030-01-01T00:00:00.123Z");
    expect(instantColumn("1893456000123", "at").toISOString()).toBe("2030-01-01T00:00:00.123Z");
  });

  it("rejects a value that is not an instant", () => {
    for (const value of [null, undefined, "soon", Number.NaN, {}]) {
      expect(() => instantColumn(value, "decided_at")).toThrow(/"decided_at" is not an instant/);
    }
  });

  it("projects a timestamptz column as float8 epoch milliseconds", () => {
    expect(epochMs("expires_at")).toBe("(extract(epoch from expires_at) * 1000)::float8 as expires_at_ms");
  });
});
