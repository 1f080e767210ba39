import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";

async function freshModules() {
  vi.resetModules();
  const schema = await import("../../src/schema/index.js");
  const valibot = await import("../../src/schema/valibot.js");
  return { ...schema, ...valibot };
}

describe("registerValibotConverter", () => {
  it("leaves valibot unknown until it is called", async () => {
    const { toJsonSchema } = await freshModules();

    expect(() => toJsonSchema(v.string())).toThrow(/registerSchemaConverter\("valibot"/);
  });

  it("converts a real Valibot schema, input side", async () => {
    const { toJsonSchema, registerValibotConverter } = await freshModules();
    registerValibotConverter();
    const schema = v.object({
      id: v.pipe(v.string(), v.minLength(1)),
      limit: v.optional(v.number(), 10),
      at: v.pipe(v.string(), v.transform((value) => new Date(value))),
    });

    const json = toJsonSchema(schema);

    expect(json).toMatchObject({
      type: "object",
      properties: {
        id: { type: "string", minLength: 1 },
        limit: { type: "number", default: 10 },
        // The transform is not part of what a caller produces.
        at: { type: "string" },
      },
      required: ["id", "at"],
    });
  });

  it("is a plain registration: it resets the cache", async () => {
    const { toJsonSchema, registerValibotConverter } = await freshModules();
    registerValibotConverter();
    const schema = v.object({ id: v.string() });
    const first = toJsonSchema(schema);

    registerValibotConverter();

    expect(toJsonSchema(schema)).not.toBe(first);
    expect(toJsonSchema(schema)).toEqual(first);
  });
});
