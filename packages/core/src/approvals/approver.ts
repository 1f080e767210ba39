import { isWellFormedActor, type Actor } from "../vocabulary/types.js";

/** An approver is a well-formed actor someone can be held to: never `anonymous` (SI-4). */
export function isAcceptableApprover(approver: unknown): approver is Actor {
  return isWellFormedActor(approver) && approver.kind !== "anonymous";
}
