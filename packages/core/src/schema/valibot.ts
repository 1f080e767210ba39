import type { StandardSchemaV1 } from "@standard-schema/spec";
// Static on purpose: importing this subpath without the peer fails at import (docs/architecture/spec/core.md#core-13).
import { toJsonSchema as valibotToJsonSchema } from "@valibot/to-json-schema";
import { registerSchemaConverter } from "./to-json-schema.js";
import type { JsonSchemaObject } from "./types.js";

type ValibotSchema = Parameters<typeof valibotToJsonSchema>[0];

/**
 * Registers the converter for Valibot schemas (vendor `"valibot"`), using the optional peer
 * `@valibot/to-json-schema`. Call it once at startup; like any registration it resets the cache.
 *
 * @example
 * import { registerValibotConverter } from "@orpc-agent/core/schema/valibot";
 * registerValibotConverter();
 */
export function registerValibotConverter(): void {
  registerSchemaConverter("valibot", convertValibot);
}

function convertValibot(schema: StandardSchemaV1): JsonSchemaObject {
  // Input side, like the built-in zod converter; same draft as zod's output.
  return valibotToJsonSchema(schema as unknown as ValibotSchema, {
    typeMode: "input",
    target: "draft-2020-12",
  }) as JsonSchemaObject;
}
