// Raised from the mutation run: programmer errors of createAgentRuntime, invoke, resume and describe reject with a
// TypeError that names the argument and the accepted shape (docs/architecture/spec/core.md#core-5, docs/architecture/spec/core.md#core-6, docs/architecture/spec/core.md#core-7, docs/architecture/spec/core.md#core-8).
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, it } from "vitest";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentRuntimeOptions } from "../../../src/index.js";
import { registerSchemaConverter } from "../../../src/schema/index.js";
import { base, build, counted, dana, meta } from "../../runtime/pipeline-harness.js";

const governance = () => defineGovernance({ registry: createCapabilityRegistry({ a: counted().procedure }) });
const create = (extra: Partial<AgentRuntimeOptions>) => () => createAgentRuntime({ governance: governance(), audit: () => {}, ...extra });

describe("createAgentRuntime arguments", () => {
  it("refuses a now that is not a function, and an approvals.handler that is not a function", () => {
    expect(create({ now: 5 as never })).toThrow(new TypeError("now must be a function returning a Date."));
    expect(create({ approvals: { handler: "approve" as never } })).toThrow(new TypeError("approvals.handler must be a function."));
  });

  it.each([
    ["a number", 5],
    ["a string", "fast"],
    ["null", null],
  ])("refuses %s as defaults", (_label, defaults) => {
    expect(create({ defaults: defaults as never })).toThrow(new TypeError("defaults must be an object."));
  });

  it("says what a default must be, and what it got", () => {
    expect(create({ defaults: { policyConcurrency: 1.5 } })).toThrow(new TypeError("defaults.policyConcurrency must be a positive integer, got 1.5."));
    expect(create({ defaults: { timeoutMs: 0 } })).toThrow(new TypeError("defaults.timeoutMs must be a finite number > 0, got 0."));
    expect(create({ defaults: { discoveryBudgetMs: 2.5 } })).not.toThrow();
  });

  it("keeps the converter's error as the cause when a model-exposed schema cannot be converted", () => {
    const vendor = "mutation-unconvertible";
    const schema: StandardSchemaV1 = { "~standard": { version: 1, vendor, validate: (value) => ({ value }) } };
    registerSchemaConverter(vendor, () => ({ type: "object" }));
    const registry = createCapabilityRegistry({ tools: { search: base.input(schema).meta(agentMeta(meta())).handler(() => "ok") } });
    const failure = new Error("no converter for this vendor");
    registerSchemaConverter(vendor, () => {
      throw failure;
    });
    let caught: unknown;
    try {
      createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
    } catch (error) {
      caught = error;
    } finally {
      registerSchemaConverter(vendor, () => ({ type: "object" }));
    }
    expect((caught as Error).message).toContain("Capability tools.search");
    expect((caught as Error).cause).toBe(failure);
  });
});

describe("invoke, resume and describe arguments", () => {
  const { runtime } = build({ defs: { a: counted().procedure } });

  it("invoke names the argument that is wrong", async () => {
    await expect(runtime.invoke("", undefined, { actor: dana, context: {} })).rejects.toThrow(new TypeError("invoke: capabilityId must be a non-empty string."));
    await expect(runtime.invoke("a", undefined, null as never)).rejects.toThrow(new TypeError("invoke: options must be an object: { actor, context, surface? }."));
    await expect(runtime.invoke("a", undefined, "x" as never)).rejects.toThrow(new TypeError("invoke: options must be an object: { actor, context, surface? }."));
    await expect(runtime.invoke("a", undefined, { actor: dana, context: {}, surface: "cli" as never })).rejects.toThrow(new TypeError('invoke: unknown surface "cli".'));
    await expect(runtime.invoke("a", undefined, { actor: dana, context: {}, signal: {} as never })).rejects.toThrow(new TypeError("signal must be an AbortSignal when given."));
    await expect(runtime.invoke("a", undefined, { actor: dana, context: {}, correlationId: "" })).rejects.toThrow(
      new TypeError("invoke: correlationId must be a non-empty string when given."),
    );
    await expect(runtime.invoke("a", undefined, { actor: dana, context: {}, idempotencyKey: "" })).rejects.toThrow(
      new TypeError("invoke: idempotencyKey must be a non-empty string when given."),
    );
  });

  it("resume names the argument that is wrong, signal and expectedSurface included", async () => {
    await expect(runtime.resume("", { context: {} })).rejects.toThrow(new TypeError("resume: approvalId must be a non-empty string."));
    await expect(runtime.resume("apr_1", null as never)).rejects.toThrow(new TypeError("resume: options must be an object: { context, ... }."));
    await expect(runtime.resume("apr_1", "x" as never)).rejects.toThrow(new TypeError("resume: options must be an object: { context, ... }."));
    await expect(runtime.resume("apr_1", { context: {}, signal: "abort" as never })).rejects.toThrow(new TypeError("signal must be an AbortSignal when given."));
    await expect(runtime.resume("apr_1", { context: {}, expectedSurface: "cli" as never })).rejects.toThrow(new TypeError('resume: unknown expectedSurface "cli".'));
    await expect(runtime.resume("apr_1", { context: {}, correlationId: "" })).rejects.toThrow(new TypeError("resume: correlationId must be a non-empty string when given."));
    await expect(runtime.resume("apr_1", { context: {}, idempotencyKey: "" })).rejects.toThrow(new TypeError("resume: idempotencyKey must be a non-empty string when given."));
  });

  it("describe names the argument that is wrong", async () => {
    await expect(runtime.describe("cli" as never, { actor: dana, context: {} })).rejects.toThrow(new TypeError('describe: unknown surface "cli".'));
    for (const options of [null, "x"]) {
      await expect(runtime.describe("aiSdk", options as never)).rejects.toThrow(new TypeError("describe: options must be an object: { actor, context, scope?, inputSchemas? }."));
    }
    await expect(runtime.describe("aiSdk", { actor: { id: "" } as never, context: {} })).rejects.toThrow(
      new TypeError("describe: options.actor must be a well-formed actor ({ id: non-empty string, kind })."),
    );
    for (const scope of ["ids", null, ["a"]]) {
      await expect(runtime.describe("aiSdk", { actor: dana, context: {}, scope: scope as never })).rejects.toThrow(
        new TypeError("describe: scope must be { tags?: string[]; ids?: string[] }."),
      );
    }
    await expect(runtime.describe("aiSdk", { actor: dana, context: {}, scope: { id: [] } as never })).rejects.toThrow(new TypeError('describe: unknown scope key "id".'));
    await expect(runtime.describe("aiSdk", { actor: dana, context: {}, scope: { tags: [1] } as never })).rejects.toThrow(
      new TypeError("describe: scope.tags must be an array of strings."),
    );
    for (const inputSchemas of ["frozen", null, true]) {
      await expect(runtime.describe("aiSdk", { actor: dana, context: {}, inputSchemas: inputSchemas as never })).rejects.toThrow(
        new TypeError(`describe: options.inputSchemas must be "copy" or "shared", got ${JSON.stringify(inputSchemas)}.`),
      );
    }
  });
});
