import { quorumOf } from "../../approvals/quorum.js";
import type { GrantRecord, GrantRequest, GrantTerms } from "../../approvals/grants/types.js";
import type { ApprovalRecord } from "../../approvals/types.js";
import type { Actor } from "../../vocabulary/types.js";
import type { RuntimeState } from "../state.js";
import { prepareGrant, storeGrant } from "./issue.js";

/** How `runtime.approvals.decide` issues a grant with an approval: checked before the decision, stored after it. */
export type DecisionGrants = {
  prepare(record: ApprovalRecord, approver: Actor, request: GrantRequest): Promise<GrantTerms>;
  store(terms: GrantTerms): Promise<GrantRecord>;
};

/**
 * A grant decided with an approval binds what the request does: its principal, capability, surface and conversation,
 * its approval types, its quorum, and the definition it was requested under (a changed one refuses the grant).
 */
export function decisionGrants(rt: RuntimeState): DecisionGrants {
  return {
    prepare: (record, approver, request) =>
      prepareGrant(rt, {
        capabilityId: record.capabilityId,
        actor: record.actor,
        surface: record.surface,
        conversationId: typeof record.conversationId === "string" ? record.conversationId : undefined,
        issuers: [approver],
        types: Array.isArray(record.types) ? record.types : [],
        request,
        approvalId: record.id,
        quorum: quorumOf(record),
        ...(typeof record.definitionDigest === "string" ? { requestedDigest: record.definitionDigest } : {}),
      }),
    store: (terms) => storeGrant(rt, terms),
  };
}
