// Property-based check of SI-6 (docs/architecture/spec/core.md#core-3-1 step 6): the frozen value policies see is the validated value, key
// for key — including own "__proto__" and "constructor" keys that JSON.parse creates — and inherits nothing.
import { os } from "@orpc/server";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentMeta, agentProcedure, allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy } from "../../src/index.js";
import { canonicalJson } from "../../src/approvals/canonical-json.js";
import { copyJsonTree } from "../../src/internal/json-tree.js";

const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "toString", "isAdmin", "10"), fc.string({ maxLength: 4 }));
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null)),
    fc.array(tie("node"), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie("node")), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`).map((text) => JSON.parse(text) as unknown),
  ),
})).node;

/** Every object node has a plain prototype and carries only own keys. */
function inheritsNothing(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  return Object.keys(value).every((k) => inheritsNothing((value as Record<string, unknown>)[k]));
}

describe("validated input properties (SI-6)", () => {
  it("SI-6: policies see the validated value exactly, own '__proto__' keys included, frozen, inheriting nothing", async () => {
    const seen: unknown[] = [];
    const base = agentProcedure(os);
    const registry = createCapabilityRegistry({
      passthrough: base
        .input(z.object({ data: z.unknown() }))
        .meta(agentMeta({ description: "Pass data through.", expose: { direct: true }, sideEffect: "read", risk: "low" }))
        .handler(({ input }) => canonicalJson(input)),
      schemaless: base.meta(agentMeta({ description: "No schema.", expose: { direct: true }, sideEffect: "read", risk: "low" })).handler(({ input }) => canonicalJson(input)),
    });
    const watcher = definePolicy("watcher", (req) => {
      seen.push(req.input);
      return allow();
    });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry, policies: [watcher] }) });
    const actor = { id: "u_dana", kind: "user" as const };

    await fc.assert(
      fc.asyncProperty(tree, async (data) => {
        for (const [id, input] of [["passthrough", { data }], ["schemaless", { data }]] as const) {
          seen.length = 0;
          const result = await runtime.invoke(id, input, { actor, context: {} });
          expect(result.status).toBe("completed");
          const policyView = seen[0];
          expect(canonicalJson(policyView)).toBe(canonicalJson(input));
          expect(inheritsNothing(policyView)).toBe(true);
          expect(Object.isFrozen(policyView)).toBe(true);
          // What executes is what the policy judged.
          if (result.status === "completed") expect(result.output).toBe(canonicalJson(policyView));
        }
      }),
      { numRuns: 300 },
    );
    // The attack the property generalizes: an inherited flag must not appear where the input has an own key.
    seen.length = 0;
    await runtime.invoke("passthrough", JSON.parse('{"data":{"__proto__":{"isAdmin":true}}}'), { actor, context: {} });
    const data = (seen[0] as { data: Record<string, unknown> }).data;
    expect(data.isAdmin).toBeUndefined();
    expect(Object.hasOwn(data, "__proto__")).toBe(true);
  });

  it("descriptor copies keep a schema property named '__proto__' as an own key", () => {
    fc.assert(
      fc.property(tree, (value) => {
        const copy = copyJsonTree(value);
        expect(canonicalJson(copy)).toBe(canonicalJson(value));
        expect(inheritsNothing(copy)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
