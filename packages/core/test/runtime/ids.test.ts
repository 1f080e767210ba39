// Runtime ids (internal/ids.ts): a prefix and an RFC 9562 version-4 UUID, flat strings, never repeated, and with
// every random bit in use across a pool refill.
import { describe, expect, it } from "vitest";
import { newApprovalId, newExecutionId, newIdempotencyKey } from "../../src/internal/ids.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("runtime ids", () => {
  it("are prefixed version-4 UUIDs", () => {
    for (const [mint, prefix] of [[newExecutionId, "exe_"], [newApprovalId, "apr_"], [newIdempotencyKey, "idk_"]] as const) {
      const id = mint();
      expect(id.slice(0, 4)).toBe(prefix);
      expect(id.slice(4)).toMatch(V4);
    }
  });

  it("never repeat across many pool refills, and every free nibble takes every value", () => {
    const seen = new Set<string>();
    const values = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 5_000; i++) {
      const id = newExecutionId();
      seen.add(id);
      const uuid = id.slice(4);
      for (let c = 0; c < 36; c++) values[c]!.add(uuid[c]!);
    }
    expect(seen.size).toBe(5_000);
    for (let c = 0; c < 36; c++) {
      if ([8, 13, 18, 23].includes(c)) expect([...values[c]!]).toEqual(["-"]);
      else if (c === 14) expect([...values[c]!]).toEqual(["4"]);
      else if (c === 19) expect([...values[c]!].sort()).toEqual(["8", "9", "a", "b"]);
      else expect(values[c]!.size).toBe(16);
    }
  });

  it("are not affected by the next id minted (each call returns its own string)", () => {
    const first = newApprovalId();
    const copy = `${first}`;
    newApprovalId();
    expect(first).toBe(copy);
  });
});
