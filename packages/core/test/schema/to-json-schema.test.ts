import type { StandardSchemaV1 } from "@standard-schema/spec";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

// Converter state is module-level (docs/architecture/spec/core.md#core-13), so each test gets a fresh module instance.
async function freshSchemaModule() {
  vi.resetModules();
  return import("../../src/schema/index.js");
}

function fakeSchema(vendor: unknown): StandardSchemaV1 {
  return { "~standard": { version: 1, vendor, validate: (value: unknown) => ({ value }) } } as StandardSchemaV1;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("toJsonSchema with the built-in zod converter", () => {
  it("converts the input side: a .default() field is optional", async () => {
    const { toJsonSchema } = await freshSchemaModule();
    const schema = z.object({ id: z.string(), limit: z.number().default(10) });

    const json = toJsonSchema(schema);

    expect(json.type).toBe("object");
    expect(json.properties).toEqual({ id: { type: "string" }, limit: { type: "number", default: 10 } });
    expect(json.required).toEqual(["id"]);
  });

  it("memoizes per schema object", async () => {
    const { toJsonSchema } = await freshSchemaModule();
    const schema = z.object({ id: z.string() });

    const first = toJsonSchema(schema);

    expect(toJsonSchema(schema)).toBe(first);
    expect(toJsonSchema(z.object({ id: z.string() }))).not.toBe(first);
  });

  it("explains that zod ^4 is needed when the installed zod has no toJSONSchema", async () => {
    const { toJsonSchema } = await freshSchemaModule();
    const real = process.getBuiltinModule.bind(process);
    vi.spyOn(process, "getBuiltinModule").mockImplementation(((id: string) =>
      id === "node:module" ? { createRequire: () => () => ({ z: {} }) } : real(id)) as typeof process.getBuiltinModule);

    // A classic Zod 4 schema converts through its own instance; the peer is only loaded for schemas without
    // that method (zod/mini), which this vendor-"zod" stand-in models.
    expect(() => toJsonSchema(fakeSchema("zod"))).toThrow(/zod \^4/);
  });

  it("explains that the zod peer is missing when it cannot be loaded", async () => {
    const { toJsonSchema } = await freshSchemaModule();
    const real = process.getBuiltinModule.bind(process);
    const notFound = () => {
      throw Object.assign(new Error("Cannot find module 'zod'"), { code: "MODULE_NOT_FOUND" });
    };
    vi.spyOn(process, "getBuiltinModule").mockImplementation(((id: string) =>
      id === "node:module" ? { createRequire: () => notFound } : real(id)) as typeof process.getBuiltinModule);

    expect(() => toJsonSchema(fakeSchema("zod"))).toThrow(/optional peer "zod"/);
  });
});

it("converts a classic Zod 4 schema with its own Zod instance, without loading the peer", async () => {
  const { toJsonSchema } = await freshSchemaModule();
  const spy = vi.spyOn(process, "getBuiltinModule");
  expect(toJsonSchema(z.object({ a: z.string() }))).toEqual(z.toJSONSchema(z.object({ a: z.string() }), { io: "input" }));
  expect(spy.mock.calls.some(([id]) => id === "node:module")).toBe(false);
});

describe("toJsonSchema vendor lookup", () => {
  it("rejects a schema without a ~standard.vendor with a TypeError", async () => {
    const { toJsonSchema } = await freshSchemaModule();

    expect(() => toJsonSchema({} as StandardSchemaV1)).toThrow(TypeError);
    expect(() => toJsonSchema(fakeSchema(undefined))).toThrow(TypeError);
    expect(() => toJsonSchema(fakeSchema(42))).toThrow(TypeError);
    expect(() => toJsonSchema(null as unknown as StandardSchemaV1)).toThrow(TypeError);
  });

  it("names an unknown vendor and tells the user to register a converter at startup", async () => {
    const { toJsonSchema } = await freshSchemaModule();

    let caught: unknown;
    try {
      toJsonSchema(fakeSchema("yup"));
    } catch (error) {
      caught = error;
    }

    expect(caught).toBeInstanceOf(Error);
    expect(caught).not.toBeInstanceOf(TypeError);
    expect((caught as Error).message).toContain('"yup"');
    expect((caught as Error).message).toContain('registerSchemaConverter("yup"');
    expect((caught as Error).message).toContain("at startup");
  });

  it("uses a registered converter for its vendor", async () => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    const schema = fakeSchema("yup");
    const convert = vi.fn(() => ({ type: "string" }));

    registerSchemaConverter("yup", convert);

    expect(toJsonSchema(schema)).toEqual({ type: "string" });
    expect(convert).toHaveBeenCalledWith(schema);
  });

  it("lets a registered converter override the built-in zod converter", async () => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    registerSchemaConverter("zod", () => ({ overridden: true }));

    expect(toJsonSchema(z.string())).toEqual({ overridden: true });
  });

  it.each([
    ["null", null],
    ["a string", "{}"],
    ["an array", [{ type: "string" }]],
    ["undefined", undefined],
  ])("rejects a converter result that is %s", async (_label, result) => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    registerSchemaConverter("odd", () => result as never);

    expect(() => toJsonSchema(fakeSchema("odd"))).toThrow(/vendor "odd".*JSON Schema object/);
  });

  it("propagates a converter's own error", async () => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    registerSchemaConverter("odd", () => {
      throw new Error("cannot convert transforms");
    });

    expect(() => toJsonSchema(fakeSchema("odd"))).toThrow("cannot convert transforms");
  });
});

describe("registerSchemaConverter", () => {
  it("resets the whole cache", async () => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    const zodSchema = z.object({ id: z.string() });
    const other = fakeSchema("yup");
    registerSchemaConverter("yup", () => ({ version: 1 }));
    const zodBefore = toJsonSchema(zodSchema);
    const otherBefore = toJsonSchema(other);

    // Registering an unrelated vendor still drops every memoized result.
    registerSchemaConverter("unrelated", () => ({}));

    const zodAfter = toJsonSchema(zodSchema);
    expect(zodAfter).not.toBe(zodBefore);
    expect(zodAfter).toEqual(zodBefore);
    expect(toJsonSchema(other)).not.toBe(otherBefore);
  });

  it("serves the new converter's result for a schema converted before", async () => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    const schema = fakeSchema("yup");
    registerSchemaConverter("yup", () => ({ version: 1 }));
    expect(toJsonSchema(schema)).toEqual({ version: 1 });

    registerSchemaConverter("yup", () => ({ version: 2 }));

    expect(toJsonSchema(schema)).toEqual({ version: 2 });
  });

  it("validates its arguments with TypeErrors", async () => {
    const { registerSchemaConverter } = await freshSchemaModule();
    const convert = () => ({});

    expect(() => registerSchemaConverter("", convert)).toThrow(TypeError);
    expect(() => registerSchemaConverter(1 as unknown as string, convert)).toThrow(TypeError);
    expect(() => registerSchemaConverter("yup", undefined as never)).toThrow(TypeError);
    expect(() => registerSchemaConverter("yup", { convert } as never)).toThrow(TypeError);
  });

  it("does not reset the cache when it rejects its arguments", async () => {
    const { toJsonSchema, registerSchemaConverter } = await freshSchemaModule();
    const schema = z.string();
    const first = toJsonSchema(schema);

    expect(() => registerSchemaConverter("", () => ({}))).toThrow(TypeError);

    expect(toJsonSchema(schema)).toBe(first);
  });
});
