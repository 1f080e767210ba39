// oRPC marks `eventIterator(...)` schemas with an own symbol on `~standard`; matching the symbol's
// description avoids importing @orpc/contract, which the server package does not re-export.
const EVENT_ITERATOR_DETAILS = "ORPC_EVENT_ITERATOR_DETAILS";

/** True for oRPC event-iterator (streaming) schemas, which cannot back a capability (core.md §2.1). */
export function isEventIteratorSchema(schema: unknown): boolean {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return false;
  const standard: unknown = (schema as { "~standard"?: unknown })["~standard"];
  if (typeof standard !== "object" || standard === null) return false;
  for (const symbol of Object.getOwnPropertySymbols(standard)) {
    if (symbol.description === EVENT_ITERATOR_DETAILS) return true;
  }
  return false;
}
