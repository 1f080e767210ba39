import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import { toJsonSchema } from "../../src/schema/to-json-schema.js";
import { buildProblems, validAgent } from "./fixtures.js";
import { agentMeta } from "@orpc-agent/core";

const builder = os;
const acmeSchema = { "~standard": { version: 1 as const, vendor: "acme", validate: (value: unknown) => ({ value }) } };

function converterError(schema: unknown): string {
  try {
    toJsonSchema(schema as never);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the conversion to fail");
}

describe("schema convertibility (core.md §2.1)", () => {
  it("an unknown-vendor input schema on a model surface is a problem quoting the converter error", () => {
    const procedure = builder.input(acmeSchema).meta(agentMeta({ ...validAgent, expose: { mcp: true } })).handler(() => 1);
    expect(buildProblems({ orders: { refund: procedure } })).toEqual([
      `orders.refund: input schema cannot be converted to JSON Schema for aiSdk/mcp: ${converterError(acmeSchema)}`,
    ]);
    expect(converterError(acmeSchema)).toContain('registerSchemaConverter("acme"');
  });

  it("a zod input schema that has no JSON Schema form is a problem on aiSdk", () => {
    const schema = z.object({ amount: z.bigint() });
    const procedure = builder.input(schema).meta(agentMeta({ ...validAgent, expose: { aiSdk: true } })).handler(() => 1);
    const problems = buildProblems({ pay: procedure });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toBe(`pay: input schema cannot be converted to JSON Schema for aiSdk/mcp: ${converterError(schema)}`);
  });

  it("capabilities not exposed on a model surface are not converted", () => {
    const procedure = builder.input(acmeSchema).meta(agentMeta({ ...validAgent, expose: { direct: true, workflow: true, aiSdk: false } })).handler(() => 1);
    expect(createCapabilityRegistry({ a: procedure }).ids()).toEqual(["a"]);
  });

  it("only the input schema must convert", () => {
    const procedure = builder
      .input(z.object({ id: z.string() }))
      .output(z.object({ amount: z.bigint() }))
      .meta(agentMeta(validAgent))
      .handler(() => ({ amount: 1n }));
    expect(createCapabilityRegistry({ a: procedure }).ids()).toEqual(["a"]);
  });

  it("convertible zod input schemas and procedures without input pass", () => {
    const withInput = builder.input(z.object({ id: z.string() })).meta(agentMeta(validAgent)).handler(() => 1);
    const withoutInput = builder.meta(agentMeta(validAgent)).handler(() => 1);
    expect(createCapabilityRegistry({ withInput, withoutInput }).ids()).toEqual(["withInput", "withoutInput"]);
  });
});
