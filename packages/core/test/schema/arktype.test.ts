import type { StandardSchemaV1 } from "@standard-schema/spec";
import { type } from "arktype";
import { describe, expect, it, vi } from "vitest";

async function freshModules() {
  vi.resetModules();
  const schema = await import("../../src/schema/index.js");
  const arktype = await import("../../src/schema/arktype.js");
  return { ...schema, ...arktype };
}

describe("registerArktypeConverter", () => {
  it("leaves arktype unknown until it is called", async () => {
    const { toJsonSchema } = await freshModules();

    expect(() => toJsonSchema(type("string"))).toThrow(/registerSchemaConverter\("arktype"/);
  });

  it("converts a real ArkType type", async () => {
    const { toJsonSchema, registerArktypeConverter } = await freshModules();
    registerArktypeConverter();
    const schema = type({ id: "string > 0", "note?": "string", count: "number.integer" });

    const json = toJsonSchema(schema);

    expect(json).toMatchObject({
      type: "object",
      properties: { id: { type: "string", minLength: 1 }, note: { type: "string" }, count: { type: "integer" } },
      required: ["count", "id"],
    });
  });

  it("converts the input side of a type with a morph", async () => {
    const { toJsonSchema, registerArktypeConverter } = await freshModules();
    registerArktypeConverter();
    const schema = type({ size: type("string").pipe((value) => value.length) });

    const json = toJsonSchema(schema);

    expect(json).toMatchObject({ type: "object", properties: { size: { type: "string" } }, required: ["size"] });
  });

  it("rejects a schema that claims the arktype vendor but is not an ArkType type", async () => {
    const { toJsonSchema, registerArktypeConverter } = await freshModules();
    registerArktypeConverter();
    const impostor = { "~standard": { version: 1, vendor: "arktype", validate: (value: unknown) => ({ value }) } };

    expect(() => toJsonSchema(impostor as StandardSchemaV1)).toThrow(TypeError);
  });
});
