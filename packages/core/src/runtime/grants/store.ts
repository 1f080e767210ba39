import type { ApprovalCoordinator } from "../../approvals/types.js";
import type { GrantStore } from "../../approvals/grants/types.js";
import { syncGrantsOf, type SyncGrantOperations } from "../../approvals/grants/sync-grants.js";

const OPERATIONS = ["createGrant", "getGrant", "listGrants", "useGrant", "revokeGrant"] as const;

const sameTick = new WeakMap<GrantStore, SyncGrantOperations>();

/**
 * The coordinator's grant operations, bound, when it has all five; otherwise `undefined`, and the runtime refuses every
 * grant (`GRANT_NOT_ALLOWED`) and covers nothing with one. Read once at startup, like the rest of the coordinator seam.
 */
export function grantStoreOf(coordinator: ApprovalCoordinator): GrantStore | undefined {
  if (!OPERATIONS.every((name) => typeof coordinator[name] === "function")) return undefined;
  const store: GrantStore = Object.freeze({
    createGrant: coordinator.createGrant!.bind(coordinator),
    getGrant: coordinator.getGrant!.bind(coordinator),
    listGrants: coordinator.listGrants!.bind(coordinator),
    useGrant: coordinator.useGrant!.bind(coordinator),
    revokeGrant: coordinator.revokeGrant!.bind(coordinator),
  });
  // Read at the same moment as the functions above, so the fast path can never outlive the operations it stands for.
  const sync = syncGrantsOf(coordinator.listGrants, coordinator.useGrant);
  if (sync !== undefined) sameTick.set(store, sync);
  return store;
}

/** The same-tick form of this store's lookup and use, when its coordinator's own functions offer one (in memory). */
export function sameTickGrants(store: GrantStore): SyncGrantOperations | undefined {
  return sameTick.get(store);
}
