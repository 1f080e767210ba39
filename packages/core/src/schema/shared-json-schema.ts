import { frozenCopy } from "../internal/deep-freeze.js";
import type { JsonSchemaObject } from "./types.js";

// Keyed by the memoized conversion, not the schema: `registerSchemaConverter` replaces every conversion, and the
// frozen trees of the old ones go with them.
const frozenTrees = new WeakMap<JsonSchemaObject, JsonSchemaObject>();

/**
 * One deep-frozen copy of a memoized conversion, the same object for every caller (`describe` with
 * `inputSchemas: "shared"`, docs/architecture/spec/core.md#core-8 step 4 as extended). The conversion itself stays unfrozen: it is
 * `toJsonSchema`'s public return value.
 */
export function sharedJsonSchema(conversion: JsonSchemaObject): JsonSchemaObject {
  let tree = frozenTrees.get(conversion);
  if (tree === undefined) frozenTrees.set(conversion, (tree = frozenCopy(conversion)));
  return tree;
}
