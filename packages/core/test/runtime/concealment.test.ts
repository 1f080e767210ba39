import { describe, expect, it } from "vitest";
import { definePolicy, hide, type CapabilityError, type ExecutionResult } from "../../src/index.js";
import { build, counted, dana, errorOf, publicShape } from "./pipeline-harness.js";

const POLICY_NAME = "zz-hide-vault-policy";

function concealingRuntime() {
  const vault = counted({ expose: { aiSdk: true } });
  const hidden = definePolicy(POLICY_NAME, () => hide(), { scope: { capabilities: { ids: ["vault"] } } });
  return build({
    defs: { vault: vault.procedure, internal: counted({ expose: { direct: true } }).procedure },
    policies: [hidden],
  });
}

/** The envelope without its (necessarily fresh) execution id. */
const withoutId = (result: ExecutionResult) => {
  const { executionId: _ignored, ...rest } = result;
  return rest;
};

describe("unknown, unexposed and hidden are indistinguishable (SI-8)", () => {
  it("SI-8: unknown, unexposed and hidden give the same public error while the audit reason tells the truth", async () => {
    const { runtime, ofType } = concealingRuntime();
    const options = { actor: dana, context: {}, surface: "aiSdk" as const };
    const results = [
      await runtime.invoke("no.such.thing", undefined, options),
      await runtime.invoke("internal", undefined, options),
      await runtime.invoke("vault", undefined, options),
    ];
    const errors = results.map(errorOf);
    const [unknown, unexposed, hidden] = errors as [CapabilityError, CapabilityError, CapabilityError];

    expect(unknown.code).toBe("CAPABILITY_NOT_FOUND");
    for (const other of [unexposed, hidden]) {
      expect(other.code).toBe(unknown.code);
      expect(other.publicMessage).toBe(unknown.publicMessage);
      expect(other.retryable).toBe(unknown.retryable);
      expect(other.exposeToModel).toBe(unknown.exposeToModel);
      expect(other.stage).toBe(unknown.stage);
      expect(other.details).toEqual(unknown.details);
      expect(other.message).toBe(unknown.message);
      expect(publicShape(other)).toEqual(publicShape(unknown));
      expect(JSON.stringify(other)).toBe(JSON.stringify(unknown));
      expect(Object.keys(other).sort()).toEqual(Object.keys(unknown).sort());
    }
    expect(results.map((r) => JSON.stringify(withoutId(r)))).toEqual(Array(3).fill(JSON.stringify(withoutId(results[0]!))));
    expect(unknown.toJSON()).toEqual({ code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false });

    expect(ofType("capability.denied").map((e) => e.data.reason)).toEqual(["unknown", "not-exposed", "hidden"]);
  });

  it("SI-8 (§15 item 4): a concealed error carries no policy name anywhere a caller can see", async () => {
    const { runtime, ofType } = concealingRuntime();
    const result = await runtime.invoke("vault", undefined, { actor: dana, context: {}, surface: "aiSdk" });
    const error = errorOf(result);
    expect(error.details).toBeUndefined();
    const visible = JSON.stringify({ result, error, public: publicShape(error), stack: error.stack });
    expect(visible).not.toContain(POLICY_NAME);
    expect(String(error)).not.toContain(POLICY_NAME);
    // The audit trail alone names it.
    expect(JSON.stringify(ofType("capability.denied"))).toContain(POLICY_NAME);
  });

  it("SI-8 (§15 item 4): a failing policy's POLICY_FAILED names no policy either", async () => {
    const target = counted();
    const broken = definePolicy("zz-broken-policy", () => {
      throw new Error("zz-broken-policy internals");
    });
    const { runtime } = build({ defs: { op: target.procedure }, policies: [broken] });
    const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
    const error = errorOf(result);
    expect(error.code).toBe("POLICY_FAILED");
    expect(JSON.stringify({ result, public: publicShape(error) })).not.toContain("zz-broken-policy");
    expect(error.message).not.toContain("zz-broken-policy");
  });

  it("SI-8: hidden at invocation is concealed on every surface it would otherwise reach", async () => {
    const everywhere = counted({ expose: { direct: true, aiSdk: true, mcp: true, workflow: true, test: true } });
    const { runtime } = build({
      defs: { everywhere: everywhere.procedure },
      policies: [definePolicy("hide-all", () => hide())],
    });
    const unknownJson = JSON.stringify(errorOf(await runtime.invoke("nope", undefined, { actor: dana, context: {} })));
    for (const surface of ["direct", "aiSdk", "mcp", "workflow", "test"] as const) {
      const error = errorOf(await runtime.invoke("everywhere", undefined, { actor: dana, context: {}, surface }));
      expect(JSON.stringify(error)).toBe(unknownJson);
      expect(publicShape(error)).toEqual(publicShape(errorOf(await runtime.invoke("nope", undefined, { actor: dana, context: {}, surface }))));
    }
    expect(everywhere.calls.count).toBe(0);
  });
});
