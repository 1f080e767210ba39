import { actingAgentId, isWellFormedActor } from "../vocabulary/types.js";

/**
 * R2's actor guard (docs/architecture/spec/core.md#core-r2, ADR-029): whether `expected` names the principal that
 * requested an approval, on id, kind and acting agent. A guard naming an acting agent must name the requester's; a
 * guard without one does not check it, so an approvals page can resume for the user. A malformed guard or requester
 * matches nothing. `runtime.resume` applies it, and adapters that act on an approval before resuming it (a chat
 * confirmation decides first) apply the same function, so they never accept an answer resume would refuse.
 */
export function matchesRequester(expected: unknown, requester: unknown): boolean {
  if (!isWellFormedActor(expected) || typeof requester !== "object" || requester === null) return false;
  const { id, kind } = requester as { id?: unknown; kind?: unknown };
  return expected.id === id && expected.kind === kind && (expected.via === undefined || actingAgentId(expected) === actingAgentId(requester));
}
