import { refusesActingAgent } from "../acting-agent.js";
import { isAcceptableApprover } from "../approver.js";
import { sameApprover } from "../approver-identity.js";
import type { ApprovalDeciders, ApprovalView } from "./types.js";

/**
 * Whether `actor` may take `action` on the approval a view shows, under the SI-4 rules `runtime.approvals.decide`
 * applies: only while open; never an anonymous or malformed actor; not the requester unless the request is
 * requester-confirmable; not the acting agent nor anyone relaying through it or the requester; not an approver already
 * counted (approving again; rejecting stays open to them). Offer the buttons only to someone this admits; `decide`
 * still checks everything. Who is authorised to approve what remains the app's check.
 *
 * @example
 * import { describeApproval, mayDecide, type AgentRuntime, type Actor } from "@orpc-agent/core";
 * declare const runtime: AgentRuntime, signedIn: Actor, approvalId: string;
 * const record = (await runtime.approvals.get(approvalId))!;
 * const view = describeApproval(record, runtime.registry.get(record.capabilityId), { now: new Date() });
 * const showButtons = mayDecide(view, signedIn);
 */
export function mayDecide(view: Pick<ApprovalView, "decidableBy">, actor: unknown, action: "approve" | "reject" = "approve"): boolean {
  const rule: ApprovalDeciders | undefined = view?.decidableBy;
  if (rule === undefined || rule === null || rule.open !== true) return false;
  if (!isAcceptableApprover(actor)) return false;
  if (sameApprover(actor.id, rule.requester.id) && !rule.requesterMayDecide) return false;
  const requester = { id: rule.requester.id, ...(rule.requester.agentId === undefined ? {} : { via: { id: rule.requester.agentId } }) };
  if (refusesActingAgent({ rejectSelfApproval: rule.refusesRelays }, requester, [actor])) return false;
  if (action === "approve" && rule.counted.some((id) => sameApprover(id, actor.id))) return false;
  return true;
}
