import type { StandardSchemaV1 } from "@standard-schema/spec";

export type JsonSchemaObject = { [key: string]: unknown };
export type SchemaConverter = (schema: StandardSchemaV1) => JsonSchemaObject;
