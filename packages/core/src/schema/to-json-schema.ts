import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describeValue } from "../internal/describe-value.js";
import type { JsonSchemaObject, SchemaConverter } from "./types.js";

// Converter state is module-level on purpose: application and tooling share one core instance (docs/architecture/spec/core.md#core-13, docs/architecture/spec/core.md#core-0).
const converters = new Map<string, SchemaConverter>();
let cache = new WeakMap<object, JsonSchemaObject>();

type ZodToJsonSchema = (schema: unknown, params: { io: "input" }) => unknown;
let zodToJsonSchema: ZodToJsonSchema | undefined;

/**
 * Converts a Standard Schema to the JSON Schema of the value a caller must produce (the input side).
 * Memoized per schema object; treat the returned object as read-only, it is shared.
 *
 * @example
 * import { toJsonSchema } from "@orpc-agent/core/schema";
 * import { z } from "zod";
 * const json = toJsonSchema(z.object({ id: z.string() }));
 */
export function toJsonSchema(schema: StandardSchemaV1): JsonSchemaObject {
  const vendor = readVendor(schema);
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;

  const convert = converters.get(vendor) ?? builtInConverter(vendor);
  const result = convert(schema);
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new Error(`The JSON Schema converter for vendor "${vendor}" returned ${describeValue(result)}; it must return a JSON Schema object.`);
  }
  cache.set(schema, result);
  return result;
}

/**
 * Registers the JSON Schema converter for a Standard Schema vendor; it wins over the built-in one.
 * Call it once at startup. Registering resets every memoized conversion.
 *
 * @example
 * import { registerSchemaConverter, type JsonSchemaObject } from "@orpc-agent/core/schema";
 * declare function myLibToJsonSchema(schema: unknown): JsonSchemaObject;
 * registerSchemaConverter("my-lib", (schema) => myLibToJsonSchema(schema));
 */
export function registerSchemaConverter(vendor: string, convert: SchemaConverter): void {
  if (typeof vendor !== "string" || vendor.length === 0) {
    throw new TypeError("registerSchemaConverter(vendor, convert): vendor must be a non-empty string.");
  }
  if (typeof convert !== "function") {
    throw new TypeError(`registerSchemaConverter("${vendor}", convert): convert must be a function.`);
  }
  converters.set(vendor, convert);
  // A new converter may change earlier results, so nothing memoized survives (docs/architecture/spec/core.md#core-13).
  cache = new WeakMap();
}

function readVendor(schema: StandardSchemaV1): string {
  // ArkType types are functions, so both objects and functions are schema candidates.
  const isCandidate = (typeof schema === "object" && schema !== null) || typeof schema === "function";
  const props: unknown = isCandidate ? (schema as { "~standard"?: unknown })["~standard"] : undefined;
  const vendor = typeof props === "object" && props !== null ? (props as { vendor?: unknown }).vendor : undefined;
  if (typeof vendor !== "string" || vendor.length === 0) {
    throw new TypeError("toJsonSchema(schema): expected a Standard Schema with a string `~standard.vendor`.");
  }
  return vendor;
}

function builtInConverter(vendor: string): SchemaConverter {
  if (vendor === "zod") return convertZod;
  throw new Error(
    `No JSON Schema converter is registered for schema vendor "${vendor}". ` +
      `Call registerSchemaConverter("${vendor}", (schema) => …) once at startup ` +
      `(for Valibot and ArkType, call registerValibotConverter() from "@orpc-agent/core/schema/valibot" ` +
      `or registerArktypeConverter() from "@orpc-agent/core/schema/arktype").`,
  );
}

function convertZod(schema: StandardSchemaV1): JsonSchemaObject {
  // Classic Zod 4 schemas carry the converter of their own Zod instance: use it, so an application's ESM Zod is
  // never converted by a second (CommonJS) copy loaded here.
  const own = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof own === "function") return own.call(schema, { io: "input" }) as JsonSchemaObject;
  zodToJsonSchema ??= loadZodToJsonSchema();
  // io "input": describe what a caller must produce, e.g. `.default()` fields are optional (docs/architecture/spec/core.md#core-13).
  return zodToJsonSchema(schema, { io: "input" }) as JsonSchemaObject;
}

// toJsonSchema is synchronous, so the optional `zod` peer is required on first use rather than imported:
// core must stay loadable without zod (docs/architecture/spec/core.md#core-0, docs/architecture/spec/core.md#core-13). Zod 4 ships a CJS build for this.
function loadZodToJsonSchema(): ZodToJsonSchema {
  const nodeModule = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.("node:module") as typeof import("node:module") | undefined;
  if (nodeModule === undefined) {
    throw new Error(
      'Cannot load the "zod" peer synchronously on this platform. Register the converter yourself at startup: ' +
        'registerSchemaConverter("zod", (schema) => z.toJSONSchema(schema, { io: "input" })).',
    );
  }
  const require = nodeModule.createRequire(import.meta.url);
  let zod: { toJSONSchema?: unknown };
  try {
    zod = require("zod") as { toJSONSchema?: unknown };
  } catch (cause) {
    throw new Error('Converting a Zod schema needs the optional peer "zod" (^4), which could not be loaded. Install zod 4.', { cause });
  }
  if (typeof zod.toJSONSchema !== "function") {
    throw new Error('The installed "zod" has no toJSONSchema: @orpc-agent/core needs zod ^4. Upgrade zod to version 4.');
  }
  return zod.toJSONSchema as ZodToJsonSchema;
}
