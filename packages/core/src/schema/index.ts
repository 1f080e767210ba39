// @orpc-agent/core/schema — Standard Schema → JSON Schema (docs/architecture/spec/core.md#core-13).
export { registerSchemaConverter, toJsonSchema } from "./to-json-schema.js";
export type { JsonSchemaObject, SchemaConverter } from "./types.js";
