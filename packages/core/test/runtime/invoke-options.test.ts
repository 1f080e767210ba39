import { describe, expect, it } from "vitest";
import type { ExecutionOptions } from "../../src/index.js";
import { build, counted, dana } from "./pipeline-harness.js";

function setup() {
  const target = counted();
  const built = build({ defs: { op: target.procedure } });
  return { ...built, target };
}

// docs/architecture/spec/core.md#core-6: TypeError only for programmer errors; nothing runs and nothing is recorded.
describe("invoke: programmer errors reject with TypeError", () => {
  const badOptions: [string, unknown][] = [
    ["undefined options", undefined],
    ["null options", null],
    ["string options", "dana"],
    ["numeric options", 1],
    ["an unknown surface", { actor: dana, context: {}, surface: "cli" }],
    ["an empty surface", { actor: dana, context: {}, surface: "" }],
    ["a null surface", { actor: dana, context: {}, surface: null }],
    ["a duck-typed signal", { actor: dana, context: {}, signal: { aborted: false, addEventListener() {} } }],
    ["an AbortController instead of its signal", { actor: dana, context: {}, signal: new AbortController() }],
    ["an empty correlationId", { actor: dana, context: {}, correlationId: "" }],
    ["a numeric correlationId", { actor: dana, context: {}, correlationId: 42 }],
    ["an empty idempotencyKey", { actor: dana, context: {}, idempotencyKey: "" }],
    ["an object idempotencyKey", { actor: dana, context: {}, idempotencyKey: { key: "k" } }],
  ];
  for (const [label, options] of badOptions) {
    it(`rejects ${label}`, async () => {
      const { runtime, events, target } = setup();
      await expect(runtime.invoke("op", undefined, options as ExecutionOptions)).rejects.toBeInstanceOf(TypeError);
      expect(events).toEqual([]);
      expect(target.calls.count).toBe(0);
    });
  }

  for (const id of ["", undefined, null, 7, {}, ["op"]]) {
    it(`rejects the capability id ${JSON.stringify(id) ?? "undefined"}`, async () => {
      const { runtime, events, target } = setup();
      await expect(runtime.invoke(id as string, undefined, { actor: dana, context: {} })).rejects.toBeInstanceOf(TypeError);
      expect(events).toEqual([]);
      expect(target.calls.count).toBe(0);
    });
  }

  it("accepts every valid optional field and the five surfaces", async () => {
    const target = counted({ expose: { direct: true, aiSdk: true, mcp: true, workflow: true, test: true } });
    const { runtime } = build({ defs: { op: target.procedure } });
    for (const surface of ["direct", "aiSdk", "mcp", "workflow", "test"] as const) {
      const result = await runtime.invoke("op", undefined, {
        actor: dana,
        context: {},
        surface,
        signal: new AbortController().signal,
        correlationId: "corr-1",
        idempotencyKey: "key-1",
      });
      expect(result.status).toBe("completed");
    }
    expect(target.calls.count).toBe(5);
  });

  it("treats an unknown but well-typed capability id as a governed outcome, not a TypeError", async () => {
    const { runtime } = setup();
    const result = await runtime.invoke("no.such", undefined, { actor: dana, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("CAPABILITY_NOT_FOUND");
  });
});
