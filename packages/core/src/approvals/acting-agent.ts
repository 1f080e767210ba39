import { actingAgentId } from "../vocabulary/types.js";
import { sameApprover } from "./approver-identity.js";

/**
 * Separation of duties (SI-4): the party that carried a request never decides it. Refused: an approver who is the
 * request's acting agent (`actor.via`), and an approver acting through that agent or through the requester ("priya
 * via the agent that acts for dana"): a decision the call's own relay carries is not an independent human one.
 * Agents are compared by id, as approver ids are (`approverKey`). The requester's own decision, whatever agent
 * carries it, is the self-approval rule's (requester-confirmable types); the agent is never allowed by those types.
 * On a quorum record the rule always holds, as for the requester; otherwise only `rejectSelfApproval: false` lifts it.
 */
export function refusesActingAgent(
  rule: { readonly rejectSelfApproval: boolean },
  requester: unknown,
  approvers: readonly unknown[],
  quorum = 1,
): boolean {
  if (quorum <= 1 && !rule.rejectSelfApproval) return false;
  const requesterId = (requester as { id?: unknown } | null)?.id;
  const agentId = actingAgentId(requester);
  return approvers.some((approver) => {
    const approverId = (approver as { id?: unknown } | null)?.id;
    if (sameApprover(approverId, agentId)) return true;
    if (sameApprover(approverId, requesterId)) return false;
    const relay = actingAgentId(approver);
    return sameApprover(relay, agentId) || sameApprover(relay, requesterId);
  });
}

/** Every approver a record shows: the final decision's and, on quorum records, each counted approval's. */
export function recordApprovers(record: unknown): unknown[] {
  const approvers: unknown[] = [];
  const r = record as { decision?: { approver?: unknown }; approvals?: unknown } | null;
  if (r?.decision?.approver !== undefined) approvers.push(r.decision.approver);
  if (Array.isArray(r?.approvals)) {
    for (const vote of r.approvals as ({ approver?: unknown } | null)[]) if (vote?.approver !== undefined) approvers.push(vote.approver);
  }
  return approvers;
}
