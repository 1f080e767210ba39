// SI-5 at depth: cycle detection switches from a short array scan to a Set past 16 open levels (packages/core/src/approvals/canonical-json.ts).
// A helper found the array alone made an input both deep and wide cost containers × depth (1.5 MB of `[[…[[],[],…]…]]`
// took 8× the CPU); these pin that cycles, shared values and the text stay right on both sides of the switch, and
// that no scan ever walks more than the shallow levels.
import { afterEach, describe, expect, it, vi } from "vitest";
import { canonicalJson, UnserializableInputError } from "../../packages/core/src/approvals/canonical-json.js";

/** `depth` nested single-key objects around `leaf`, returning the root and every level (root first). */
function chain(depth: number, leaf: unknown = 1): { root: Record<string, unknown>; levels: Record<string, unknown>[] } {
  const levels: Record<string, unknown>[] = [];
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 0; i < depth; i++) {
    levels.push(at);
    const next: Record<string, unknown> = {};
    at.d = i === depth - 1 ? leaf : next;
    at = next;
  }
  return { root, levels };
}

function refusal(value: unknown): UnserializableInputError {
  try {
    canonicalJson(value);
  } catch (error) {
    if (error instanceof UnserializableInputError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("canonical JSON at depth (SI-5)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("SI-5: a cycle closing to any ancestor is refused, at every depth either side of the switch to a Set", () => {
    for (const depth of [1, 2, 15, 16, 17, 18, 40, 200]) {
      for (const back of new Set([0, Math.floor(depth / 2), depth - 1])) {
        const { levels } = chain(depth);
        levels[depth - 1]!.d = levels[back];
        const error = refusal(levels[0]);
        expect(error.reason).toBe("cycle");
        expect(error.path).toHaveLength(depth);
      }
    }
  });

  it("SI-5: a value shared by siblings deep down is not a cycle, and is written each time", () => {
    for (const depth of [15, 16, 17, 40, 200]) {
      const shared = { v: [1] };
      const { root } = chain(depth, [shared, { again: shared }, shared]);
      const text = canonicalJson(root);
      expect(text).toBe(JSON.stringify(root));
      expect(text.split('{"v":[1]}')).toHaveLength(4);
    }
  });

  it("SI-5: leaving deep levels forgets them: the same object reused after its subtree closed is not a cycle", () => {
    const deep = chain(30).root;
    // Entered 30 levels deep, closed, then entered again from a sibling position: the Set must have dropped it.
    const value = { a: deep, b: [deep, { c: deep }] };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it("SI-5: a deep and wide input is written like JSON.stringify, and no cycle check scans more than 16 open levels", () => {
    const text = "[".repeat(200) + Array.from({ length: 2_000 }, () => "[]").join(",") + "]".repeat(200);
    const value = JSON.parse(text) as unknown;
    const includes = Array.prototype.includes;
    let longest = 0;
    vi.spyOn(Array.prototype, "includes").mockImplementation(function (this: unknown[], ...args: [unknown, number?]) {
      longest = Math.max(longest, this.length);
      return includes.apply(this, args);
    });
    const out = canonicalJson(value);
    vi.restoreAllMocks();
    expect(out).toBe(text);
    expect(longest).toBeGreaterThan(0);
    expect(longest).toBeLessThanOrEqual(16);
  });
});
