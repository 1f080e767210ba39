import type { StandardSchemaV1 } from "@standard-schema/spec";
// Static on purpose: importing this subpath without the peer fails at import (docs/architecture/spec/core.md#core-13).
import { Type } from "arktype";
import { registerSchemaConverter } from "./to-json-schema.js";
import type { JsonSchemaObject } from "./types.js";

/**
 * Registers the converter for ArkType types (vendor `"arktype"`), using the optional peer `arktype`.
 * Call it once at startup; like any registration it resets the cache.
 *
 * @example
 * import { registerArktypeConverter } from "@orpc-agent/core/schema/arktype";
 * registerArktypeConverter();
 */
export function registerArktypeConverter(): void {
  registerSchemaConverter("arktype", convertArktype);
}

function convertArktype(schema: StandardSchemaV1): JsonSchemaObject {
  if (!(schema instanceof Type)) {
    throw new TypeError('A schema with vendor "arktype" is not a Type of the installed arktype; application and core must share one arktype.');
  }
  // `.in` is the type before morphs: the value a caller must produce.
  return schema.in.toJsonSchema() as JsonSchemaObject;
}
