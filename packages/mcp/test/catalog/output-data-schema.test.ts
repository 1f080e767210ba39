// What a tool's outputSchema says about `data`: the capability's own output schema where it can say it faithfully,
// and nothing (open) where it cannot.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { dataSchemaOf } from "../../src/catalog/output-data-schema.js";

const meta = {} as never;

describe("dataSchemaOf", () => {
  it("is the output side of the declared schema: a default is present in the output, so it is required", () => {
    const data = dataSchemaOf({ outputSchema: z.object({ id: z.string(), status: z.string().default("open") }), meta });
    expect(data).toEqual({
      type: "object",
      properties: { id: { type: "string" }, status: { default: "open", type: "string" } },
      required: ["id", "status"],
      additionalProperties: false,
    });
    expect(Object.isFrozen(data)).toBe(true);
  });

  it("rebases every reference into the envelope and drops format keywords, keeping patterns", () => {
    type Node = { id: string; next?: Node };
    const node: z.ZodType<Node> = z.object({ id: z.email(), get next() { return node.optional(); } });
    const data = dataSchemaOf({ outputSchema: node, meta }) as { properties: { id: Record<string, unknown>; next: { $ref?: string } } };
    expect(data.properties.next.$ref).toBe("#/$defs/data");
    expect(data.properties.id.format).toBeUndefined();
    expect(typeof data.properties.id.pattern).toBe("string");
    expect(JSON.stringify(data)).not.toContain('"$schema"');
  });

  it.each([
    ["no output schema", { outputSchema: undefined, meta }],
    ["redact.output reshapes the output after validation", { outputSchema: z.object({ id: z.string() }), meta: { redact: { output: () => ({}) } } as never }],
    ["a transform has no JSON Schema", { outputSchema: z.object({ n: z.number().transform(String) }), meta }],
    ["a Date has no JSON form", { outputSchema: z.object({ at: z.date() }), meta }],
    ["a schema library without Standard JSON Schema", { outputSchema: { "~standard": { version: 1, vendor: "other", validate: (value: unknown) => ({ value }) } }, meta }],
    ["a converter that throws", { outputSchema: { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }), jsonSchema: { input: () => ({}), output: () => { throw new Error("no"); } } } }, meta }],
  ] as const)("is undefined (data stays open) for %s", (_label, capability) => {
    expect(dataSchemaOf(capability as never)).toBeUndefined();
  });

  it.each([
    ["a reference to another document", { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } }],
    ["an $id of its own", { $id: "urn:x", type: "object" }],
    ["an anchor", { type: "object", properties: { a: { $anchor: "a", type: "string" } } }],
    ["a pattern the u flag refuses", { type: "string", pattern: "\\_" }],
    ["a patternProperties key the u flag refuses", { type: "object", patternProperties: { "\\_": { type: "string" } } }],
  ])("is undefined for a schema with %s, which the envelope cannot carry unchanged", (_label, written) => {
    const outputSchema = { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }), jsonSchema: { input: () => written, output: () => written } } };
    expect(dataSchemaOf({ outputSchema, meta } as never)).toBeUndefined();
  });

  it("copies the library's values: freezing the schema never freezes a default it shares", () => {
    const shared = { tags: ["a"] };
    const written = { type: "object", default: shared };
    const outputSchema = { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }), jsonSchema: { input: () => written, output: () => written } } };
    expect(dataSchemaOf({ outputSchema, meta } as never)).toEqual({ type: "object", default: { tags: ["a"] } });
    expect(Object.isFrozen(shared)).toBe(false);
  });
});
