// oRPC marks `eventIterator(...)` schemas with an own symbol on `~standard`; matching the symbol's
// description avoids importing @orpc/contract, which the server package does not re-export. oRPC 1 names it
// EVENT_ITERATOR, oRPC 2 (where eventIterator is asyncIteratorObject) ASYNC_ITERATOR_OBJECT.
const STREAMING_DETAILS = new Set(["ORPC_EVENT_ITERATOR_DETAILS", "ORPC_ASYNC_ITERATOR_OBJECT_SCHEMA_DETAILS"]);

/**
 * True for oRPC event-iterator (streaming) schemas: as an output they make a streaming capability, as an input they
 * are refused (docs/architecture/spec/core.md#core-2-1).
 */
export function isEventIteratorSchema(schema: unknown): boolean {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return false;
  const standard: unknown = (schema as { "~standard"?: unknown })["~standard"];
  if (typeof standard !== "object" || standard === null) return false;
  for (const symbol of Object.getOwnPropertySymbols(standard)) {
    if (symbol.description !== undefined && STREAMING_DETAILS.has(symbol.description)) return true;
  }
  return false;
}
