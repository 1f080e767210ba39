import { actingAgentId } from "../audit/actor-ref.js";
import { sameApprover } from "./approver-identity.js";

/**
 * Separation of duties: the agent that carried a request (`actor.via`) may never approve it, like the requester
 * (SI-4). Unlike the requester, an acting agent is never allowed to confirm for the user: requester-confirmable types
 * do not apply. Only `rejectSelfApproval: false` lifts the rule, as it lifts the requester's.
 */
export function refusesActingAgent(rule: { readonly rejectSelfApproval: boolean }, requester: unknown, approverIds: readonly unknown[]): boolean {
  if (!rule.rejectSelfApproval) return false;
  const viaId = actingAgentId(requester);
  return viaId !== undefined && approverIds.some((id) => sameApprover(id, viaId));
}

/** Every approver id a record shows: the final decision's and, on quorum records, each counted approval's. */
export function recordApproverIds(record: unknown): string[] {
  const ids: string[] = [];
  const r = record as { decision?: { approver?: { id?: unknown } }; approvals?: unknown } | null;
  const decided = r?.decision?.approver?.id;
  if (typeof decided === "string") ids.push(decided);
  if (Array.isArray(r?.approvals)) {
    for (const vote of r.approvals as { approver?: { id?: unknown } }[]) {
      const id = vote?.approver?.id;
      if (typeof id === "string") ids.push(id);
    }
  }
  return ids;
}

/**
 * `runtime.approvals.decide`'s check: reads the record (only when the rule is on) and answers whether this
 * approver is the request's acting agent. An unknown id answers false, so the coordinator reports it as always.
 */
export async function decidesAsActingAgent(
  coordinator: { get(id: string): Promise<{ actor: unknown } | null> },
  rule: { readonly rejectSelfApproval: boolean },
  id: string,
  decision: unknown,
): Promise<boolean> {
  if (!rule.rejectSelfApproval) return false;
  const approverId = (decision as { approver?: { id?: unknown } } | null)?.approver?.id;
  if (typeof approverId !== "string") return false;
  const record = await coordinator.get(id);
  return record !== null && refusesActingAgent(rule, record.actor, [approverId]);
}
