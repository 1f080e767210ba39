import type { GrantRecord, GrantStore } from "./types.js";

/**
 * The lookup and the use of a store that answers in the same tick (the in-memory one), so a covered call waits on no
 * promise and copies nothing (issue 45's in-memory budget). Internal: never exported from the package, found only
 * through the store's own functions (below), and for the stage-9 lookup alone.
 *
 * The records are the store's own live entries: terms deeply frozen, counters and `status` updated in place by the
 * store. The lookup reads them in the tick it got them and never keeps or hands one on. `status` says only `revoked`
 * or `exhausted`; expiry is the caller's to judge on its own clock reading, as `useGrant` judges it on `now`.
 */
export type SyncGrantOperations = {
  /** This principal's grants on this capability, oldest first (issued at, then id), whatever their status. */
  grantsOf(capabilityId: string, actorId: string): readonly GrantRecord[];
  /**
   * Takes one use, and `amount` from the budget, from an entry `grantsOf` returned, as `useGrant` would with `now` in
   * milliseconds (`clockReading`): false when it cannot.
   */
  use(grant: GrantRecord, now: number, amount: number | undefined): boolean;
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
