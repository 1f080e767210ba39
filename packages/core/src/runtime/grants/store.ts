import type { ApprovalCoordinator } from "../../approvals/types.js";
import type { GrantStore } from "../../approvals/grants/types.js";

const OPERATIONS = ["createGrant", "getGrant", "listGrants", "useGrant", "revokeGrant"] as const;

/**
 * The coordinator's grant operations, bound, when it has all five; otherwise `undefined`, and the runtime refuses every
 * grant (`GRANT_NOT_ALLOWED`) and covers nothing with one. Read once at startup, like the rest of the coordinator seam.
 */
export function grantStoreOf(coordinator: ApprovalCoordinator): GrantStore | undefined {
  if (!OPERATIONS.every((name) => typeof coordinator[name] === "function")) return undefined;
  return Object.freeze({
    createGrant: coordinator.createGrant!.bind(coordinator),
    getGrant: coordinator.getGrant!.bind(coordinator),
    listGrants: coordinator.listGrants!.bind(coordinator),
    useGrant: coordinator.useGrant!.bind(coordinator),
    revokeGrant: coordinator.revokeGrant!.bind(coordinator),
  });
}
