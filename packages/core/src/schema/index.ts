// @orpc-agent/core/schema — Standard Schema → JSON Schema (core.md §13).
export { registerSchemaConverter, toJsonSchema } from "./to-json-schema.js";
export type { JsonSchemaObject, SchemaConverter } from "./types.js";
