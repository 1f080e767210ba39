import { actingAgentId } from "../../vocabulary/types.js";

/**
 * Whether `actor` is the principal a grant was issued to (SI-13): the same id and kind, and the same acting agent
 * (`via.id`) or none on both. Exact, never the loose spelling SI-4 compares approvers by: merging spellings there only
 * refuses more, here it would cover more.
 */
export function isGrantPrincipal(grantActor: unknown, actor: unknown): boolean {
  if (typeof grantActor !== "object" || grantActor === null || typeof actor !== "object" || actor === null) return false;
  const g = grantActor as { id?: unknown; kind?: unknown };
  const a = actor as { id?: unknown; kind?: unknown };
  return typeof g.id === "string" && g.id === a.id && g.kind === a.kind && actingAgentId(grantActor) === actingAgentId(actor);
}
