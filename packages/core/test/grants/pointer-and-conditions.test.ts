import { describe, expect, it } from "vitest";
import { parsePointer, resolvePointer } from "../../src/approvals/grants/pointer.js";
import { budgetAmount, conditionsHold } from "../../src/approvals/grants/conditions.js";
import type { GrantCondition } from "../../src/approvals/grants/types.js";

describe("JSON Pointer (RFC 6901)", () => {
  it("parses and unescapes ~1 before ~0", () => {
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
    expect(parsePointer("/a~1b/m~0n/~01")).toEqual(["a/b", "m~n", "~1"]);
    for (const bad of ["a", "/~", "/~2", "#/a", 1, null]) expect(parsePointer(bad), String(bad)).toBeUndefined();
  });

  it("resolves own data only: objects by own key, arrays by canonical in-range index", () => {
    const doc = { a: [{ b: 1 }], "": "empty", n: null };
    expect(resolvePointer(doc, [])).toEqual({ value: doc });
    expect(resolvePointer(doc, ["a", "0", "b"])).toEqual({ value: 1 });
    expect(resolvePointer(doc, [""])).toEqual({ value: "empty" });
    expect(resolvePointer(doc, ["n"])).toEqual({ value: null });
    for (const tokens of [["a", "1"], ["a", "01"], ["a", "-"], ["a", "length"], ["constructor"], ["__proto__"], ["n", "x"], ["a", "0", "b", "x"]]) {
      expect(resolvePointer(doc, tokens), tokens.join("/")).toBeUndefined();
    }
    const withGetter = Object.defineProperty({}, "secret", { get: () => "read", enumerable: true });
    expect(resolvePointer(withGetter, ["secret"])).toBeUndefined();
  });
});

describe("grant conditions", () => {
  const input = { customerId: "c_ada", amount: 40, region: "eu", tags: ["vip"], nested: { a: [1, 2] } };
  const holds = (...conditions: GrantCondition[]) => conditionsHold(conditions, input);

  it("eq and in compare JSON values strictly, objects and arrays by canonical JSON", () => {
    expect(holds({ path: "/customerId", op: "eq", value: "c_ada" })).toBe(true);
    expect(holds({ path: "/amount", op: "eq", value: "40" })).toBe(false);
    expect(holds({ path: "/nested", op: "eq", value: { a: [1, 2] } })).toBe(true);
    expect(holds({ path: "/nested", op: "eq", value: { a: [2, 1] } })).toBe(false);
    expect(holds({ path: "/tags", op: "eq", value: { 0: "vip" } })).toBe(false);
    expect(holds({ path: "/region", op: "in", value: ["us", "eu"] })).toBe(true);
    expect(holds({ path: "/region", op: "in", value: "eu" })).toBe(false);
  });

  it("order operators compare finite numbers only; prefix strings at a character boundary", () => {
    expect(holds({ path: "/amount", op: "lt", value: 41 }, { path: "/amount", op: "lte", value: 40 }, { path: "/amount", op: "gt", value: 39 }, { path: "/amount", op: "gte", value: 40 })).toBe(true);
    expect(holds({ path: "/amount", op: "lt", value: 40 })).toBe(false);
    expect(holds({ path: "/customerId", op: "gte", value: "c" })).toBe(false);
    expect(holds({ path: "/customerId", op: "prefix", value: "c_" })).toBe(true);
    expect(conditionsHold([{ path: "/s", op: "prefix", value: "\ud83d" }], { s: "\ud83d\ude00" })).toBe(false);
    expect(conditionsHold([{ path: "/s", op: "prefix", value: "e" }], { s: "e\u0301" })).toBe(false);
  });

  it("an unknown operator or a malformed path fails; no conditions hold trivially", () => {
    expect(holds({ path: "/amount", op: "matches" as never, value: 40 })).toBe(false);
    expect(holds({ path: "amount", op: "eq", value: 40 })).toBe(false);
    expect(conditionsHold([], input)).toBe(true);
  });

  it("a budget amount is a finite number >= 0 at its path; -0 counts as 0", () => {
    expect(budgetAmount({ path: "/amount", max: 100 }, input)).toBe(40);
    expect(Object.is(budgetAmount({ path: "/x", max: 100 }, { x: -0 }), 0)).toBe(true);
    for (const x of [-1, "5", null, Number.NaN, Number.POSITIVE_INFINITY, undefined]) expect(budgetAmount({ path: "/x", max: 100 }, { x }), String(x)).toBeUndefined();
    expect(budgetAmount({ path: "/missing", max: 100 }, input)).toBeUndefined();
  });
});
