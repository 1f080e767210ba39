import { CapabilityError } from "../errors/capability-error.js";
import { refusesActingAgent } from "./acting-agent.js";
import { sameApprover } from "./approver-identity.js";
import { approvalAlreadyApprovedError } from "./decide-refusals.js";
import { quorumOf } from "./quorum.js";
import { refusesSelfApproval, type SelfApprovalRule } from "./self-approval.js";
import type { ApprovalDecision, ApprovalRecord } from "./types.js";

/**
 * Separation of duties and one vote per person (SI-4), on the record as the runtime shows it: throws
 * `APPROVAL_SELF_APPROVAL` for the requester (unless the rule lets her confirm these types; never on a quorum), for
 * the acting agent or anyone acting through it or the requester, and `APPROVAL_ALREADY_DECIDED` for an approval by
 * someone a quorum already counts. `runtime.approvals.decide` and decision links both ask this, so a link can never
 * be minted or used where `decide` would refuse.
 */
export function assertMayDecide(record: ApprovalRecord, decision: ApprovalDecision, rule: SelfApprovalRule): void {
  const quorum = quorumOf(record);
  if (sameApprover(decision.approver.id, record.actor.id) && refusesSelfApproval(rule, record.types, quorum)) {
    throw new CapabilityError({ code: "APPROVAL_SELF_APPROVAL" });
  }
  if (refusesActingAgent(rule, record.actor, [decision.approver], quorum)) throw new CapabilityError({ code: "APPROVAL_SELF_APPROVAL" });
  // One vote per person: a variant spelling of an id already counted is the same approver (SI-4).
  const counted =
    decision.status === "approved" && Array.isArray(record.approvals)
      ? record.approvals.find((vote) => sameApprover(vote?.approver?.id, decision.approver.id))
      : undefined;
  if (counted !== undefined) throw approvalAlreadyApprovedError(record.id, counted.approver.id);
}
