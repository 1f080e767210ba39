import { jsonSchema } from "ai";
import type { CapabilityDescriptor } from "@orpc-agent/core";

type JsonSchemaObject = CapabilityDescriptor["inputSchema"];

/** What `tool({ inputSchema })` takes from `jsonSchema()`, whatever the `ai` major names it. */
export type ToolInputSchema = ReturnType<typeof jsonSchema>;

// The schema parameter of `jsonSchema` differs in width across `ai` majors; naming it this way names none.
type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

/** `jsonSchema(schema)` with no `validate` (docs/architecture/spec/adapters.md#adapters-2-3): raw arguments reach the runtime, the one validator. */
export function toolInputSchema(schema: object): ToolInputSchema {
  return jsonSchema(schema as JsonSchemaInput);
}

// `jsonSchema()` builds an object with a getter and symbol keys, about 1 µs each on Node 20. Local builds ask
// describe for shared schemas (one deep-frozen tree per capability, the same object on every call), so the
// wrapper is built once per tree and shared too, frozen so no tool set can change another's.
const wrappers = new WeakMap<JsonSchemaObject, ToolInputSchema>();

/** The frozen wrapper of a schema `describe(…, { inputSchemas: "shared" })` returned. */
export function sharedInputSchema(schema: JsonSchemaObject): ToolInputSchema {
  let wrapper = wrappers.get(schema);
  if (wrapper === undefined) wrappers.set(schema, (wrapper = Object.freeze(toolInputSchema(schema))));
  return wrapper;
}
