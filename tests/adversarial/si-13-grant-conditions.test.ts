// SI-13: a grant's conditions are judged on the validated input (the value the handler receives), strictly: no type
// coercion, no Unicode normalization, nothing read through a prototype or a getter, and a path that reaches nothing
// fails. Each attack sends a call that a loose reading would cover; it must ask for approval instead.
import type { GrantCondition } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dana } from "./support/runtime.js";
import { grant, grantRuntime, priya, refunds } from "./support/grants.js";

const context = {};

async function covered(schema: z.ZodType, conditions: GrantCondition[], inputs: unknown[], budget?: { path: string; max: number }) {
  const cap = refunds({ schema });
  const { runtime } = grantRuntime({ refund: cap.procedure });
  await runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: grant({ uses: 50, conditions, ...(budget ? { budget } : {}) }) });
  const statuses: string[] = [];
  for (const input of inputs) statuses.push((await runtime.invoke("refund", input, { actor: dana, context })).status);
  return { statuses, ran: cap.ran, runtime };
}

const ANY = z.object({ customerId: z.unknown(), amount: z.unknown().optional() });
const C = "completed";
const A = "approval-required";

describe("grant conditions on the validated input (SI-13)", () => {
  it("SI-13: conditions see the value after the schema's transforms: a raw value inside the condition that validates outside it asks", async () => {
    const cents = z.object({ customerId: z.string(), amount: z.number().transform((n) => n * 100) });
    const { statuses, ran } = await covered(cents, [{ path: "/amount", op: "lte", value: 100 }], [{ customerId: "c_ada", amount: 50 }, { customerId: "c_ada", amount: 1 }]);
    expect(statuses).toEqual([A, C]);
    expect(ran).toEqual([{ customerId: "c_ada", amount: 100 }]);
  });

  it("SI-13: a transform that normalizes the raw value into the condition is covered, and the handler receives that value", async () => {
    const normalized = z.object({ customerId: z.string().transform((s) => s.trim().toLowerCase()), amount: z.number() });
    const { statuses, ran } = await covered(normalized, [{ path: "/customerId", op: "eq", value: "c_ada" }], [{ customerId: "  C_ADA ", amount: 5 }]);
    expect(statuses).toEqual([C]);
    expect(ran).toEqual([{ customerId: "c_ada", amount: 5 }]);
  });

  it("SI-13: numbers by value, never coerced: 1e2 is 100 and -0 is 0, but the strings '100' and '1e2' are not numbers", async () => {
    const { statuses } = await covered(
      ANY,
      [{ path: "/amount", op: "eq", value: 1e2 }],
      [{ customerId: "x", amount: "100" }, { customerId: "x", amount: "1e2" }, { customerId: "x", amount: [100] }, { customerId: "x", amount: { valueOf: 100 } }, { customerId: "x", amount: 100 }],
    );
    expect(statuses).toEqual([A, A, A, A, C]);
    const order = await covered(ANY, [{ path: "/amount", op: "lte", value: 100 }], [{ customerId: "x", amount: "50" }, { customerId: "x", amount: null }, { customerId: "x", amount: true }, { customerId: "x", amount: 100.0000001 }, { customerId: "x", amount: -0 }]);
    expect(order.statuses).toEqual([A, A, A, A, C]);
    const zero = await covered(ANY, [{ path: "/amount", op: "eq", value: 0 }], [{ customerId: "x", amount: -0 }]);
    expect(zero.statuses).toEqual([C]);
  });

  it("SI-13: strings by code units: an NFD spelling of an NFC value, or a mark after a prefix, is not covered", async () => {
    const nfc = "Caf\u00e9";
    const nfd = "Cafe\u0301";
    const eq = await covered(ANY, [{ path: "/customerId", op: "eq", value: nfc }], [{ customerId: nfd, amount: 1 }, { customerId: nfc.toLowerCase(), amount: 1 }, { customerId: nfc, amount: 1 }]);
    expect(eq.statuses).toEqual([A, A, C]);
    const prefix = await covered(
      ANY,
      [{ path: "/customerId", op: "prefix", value: "acct_1" }],
      [{ customerId: "acct_1\u0338", amount: 1 }, { customerId: "acct_1\u200d9", amount: 1 }, { customerId: "ACCT_1", amount: 1 }, { customerId: "acct_", amount: 1 }, { customerId: "acct_1/7", amount: 1 }],
    );
    expect(prefix.statuses).toEqual([A, A, A, A, C]);
    const cafe = await covered(ANY, [{ path: "/customerId", op: "prefix", value: "Cafe" }], [{ customerId: nfd, amount: 1 }]);
    expect(cafe.statuses).toEqual([A]);
  });

  it("SI-13: prototype keys never resolve: /constructor, /__proto__ and /toString reach nothing on a plain input", async () => {
    const { statuses } = await covered(
      z.object({ customerId: z.string(), amount: z.number() }),
      [
        { path: "/constructor/name", op: "eq", value: "Object" },
      ],
      [{ customerId: "c", amount: 1 }],
    );
    expect(statuses).toEqual([A]);
    for (const condition of [
      { path: "/__proto__", op: "eq", value: {} },
      { path: "/toString", op: "in", value: [null, {}, "function"] },
      { path: "/amount/constructor/name", op: "eq", value: "Number" },
      { path: "/customerId/length", op: "eq", value: 1 },
    ] as GrantCondition[]) {
      const run = await covered(z.object({ customerId: z.string(), amount: z.number() }), [condition], [{ customerId: "c", amount: 1 }]);
      expect(run.statuses, condition.path).toEqual([A]);
    }
    // An own `__proto__` key the caller really sent is data, judged like any other key.
    const own = JSON.parse('{"customerId":"c","amount":1,"__proto__":{"tier":"gold"}}');
    const loose = await covered(z.any(), [{ path: "/__proto__/tier", op: "eq", value: "gold" }], [own, { customerId: "c", amount: 1 }]);
    expect(loose.statuses).toEqual([C, A]);
  });

  it("SI-13: JSON Pointer escapes: ~1 is '/', ~0 is '~', decoded in that order; '/a/b' is not the key 'a/b'", async () => {
    const keyed = z.object({ customerId: z.string(), amount: z.number(), tags: z.record(z.string(), z.string()) });
    const input = { customerId: "c", amount: 1, tags: { "a/b": "slash", "m~n": "tilde", "~1": "literal" } };
    const cases: [string, string, string][] = [
      ["/tags/a~1b", "slash", C],
      ["/tags/m~0n", "tilde", C],
      ["/tags/~01", "literal", C],
      ["/tags/a/b", "slash", A],
      ["/tags/~01", "slash", A],
    ];
    for (const [path, value, status] of cases) {
      const run = await covered(keyed, [{ path, op: "eq", value }], [input]);
      expect(run.statuses, path).toEqual([status]);
    }
  });

  it("SI-13: array indices are canonical and in range; a path through a string, number or null reaches nothing", async () => {
    const lines = z.object({ customerId: z.string(), amount: z.number(), lines: z.array(z.object({ sku: z.string() })), note: z.string().nullable() });
    const input = { customerId: "c_ada", amount: 1, lines: [{ sku: "sku_1" }], note: null };
    const cases: [string, unknown, string][] = [
      ["/lines/0/sku", "sku_1", C],
      ["/lines/00/sku", "sku_1", A],
      ["/lines/-/sku", "sku_1", A],
      ["/lines/1/sku", "sku_1", A],
      ["/lines/length", 1, A],
      ["/customerId/0", "c", A],
      ["/amount/0", 1, A],
      ["/note/x", null, A],
      ["/missing", null, A],
    ];
    for (const [path, value, status] of cases) {
      const run = await covered(lines, [{ path, op: "eq", value } as GrantCondition], [input]);
      expect(run.statuses, path).toEqual([status]);
    }
  });

  it("SI-13: every condition must hold (AND), and a budget path that reaches no non-negative number covers nothing", async () => {
    const both = await covered(
      ANY,
      [
        { path: "/customerId", op: "in", value: ["c_ada", "c_bob"] },
        { path: "/amount", op: "lt", value: 100 },
      ],
      [{ customerId: "c_ada", amount: 100 }, { customerId: "c_eve", amount: 1 }, { customerId: "c_bob", amount: 99 }],
    );
    expect(both.statuses).toEqual([A, A, C]);
    const budget = await covered(ANY, [], [{ customerId: "x", amount: -50 }, { customerId: "x", amount: "10" }, { customerId: "x" }, { customerId: "x", amount: 60 }, { customerId: "x", amount: 41 }, { customerId: "x", amount: 40 }], { path: "/amount", max: 100 });
    expect(budget.statuses, JSON.stringify(budget.statuses)).toEqual([A, A, A, C, A, C]);
  });

  it("SI-13: conditions are data, never functions; malformed ones are refused when issued", async () => {
    const cap = refunds({ schema: ANY });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    const issue = (conditions: unknown, budget?: unknown) =>
      runtime.grants.issue({ capabilityId: "refund", actor: dana, surface: "direct", issuers: [priya], grant: { ...grant(), conditions: conditions as GrantCondition[], ...(budget === undefined ? {} : { budget: budget as never }) } });
    const refusals: unknown[] = [
      [{ path: "/amount", op: "eq", value: () => true }],
      [{ path: "/amount", op: "matches", value: ".*" }],
      [{ path: "amount", op: "eq", value: 1 }],
      [{ path: "/m~n", op: "eq", value: 1 }],
      [{ path: "/amount", op: "lte", value: "100" }],
      [{ path: "/amount", op: "in", value: [] }],
      [{ path: "/customerId", op: "prefix", value: "" }],
      [{ path: "/customerId", op: "prefix", value: "\ud800" }],
      [{ path: "/amount", op: "eq", value: 1, check: "x" }],
      Array.from({ length: 33 }, () => ({ path: "/amount", op: "eq", value: 1 })),
      { path: "/amount", op: "eq", value: 1 },
    ];
    for (const conditions of refusals) await expect(issue(conditions), JSON.stringify(conditions)).rejects.toMatchObject({ code: "INPUT_INVALID", stage: "approval" });
    for (const budget of [{ path: "/amount", max: -1 }, { path: "/amount", max: 0 }, { path: "amount", max: 10 }, { path: "/amount" }]) {
      await expect(issue([], budget), JSON.stringify(budget)).rejects.toMatchObject({ code: "INPUT_INVALID" });
    }
    expect(await runtime.grants.list()).toEqual([]);
  });
});
