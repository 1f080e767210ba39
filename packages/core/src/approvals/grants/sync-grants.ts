import type { GrantRecord, GrantStore, GrantUse } from "./types.js";

/**
 * The lookup and the use of a store that answers in the same tick (the in-memory one), so a covered call waits on no
 * promise (issue 45's in-memory budget). They answer as `listGrants({ capabilityId, actorId, active: true })` and
 * `useGrant` would, with deeply frozen records the store may share between calls instead of fresh copies: for the
 * stage-9 lookup only, which reads them and never hands them on. Internal: never exported from the package, and found
 * only through the store's own functions (below).
 */
export type SyncGrantOperations = {
  activeGrants(capabilityId: string, actorId: string): readonly GrantRecord[];
  useGrant(id: string, use: GrantUse): GrantRecord | null;
};

const offered = new WeakMap<object, SyncGrantOperations>();

/** Records `sync` as the same-tick form of `store`'s `listGrants` and `useGrant`. */
export function offerSyncGrants(store: GrantStore, sync: SyncGrantOperations): void {
  offered.set(store.listGrants, sync);
  offered.set(store.useGrant, sync);
}

/**
 * The same-tick operations behind these two functions, when both are the very functions one store offered them for.
 * A coordinator that wraps or replaces either (logging, a remote store) gets none, and its own functions are awaited.
 */
export function syncGrantsOf(listGrants: unknown, useGrant: unknown): SyncGrantOperations | undefined {
  if (typeof listGrants !== "function" || typeof useGrant !== "function") return undefined;
  const sync = offered.get(listGrants);
  return sync !== undefined && offered.get(useGrant) === sync ? sync : undefined;
}
