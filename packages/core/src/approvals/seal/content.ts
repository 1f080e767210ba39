import { canonicalJson } from "../canonical-json.js";
import { quorumOf } from "../quorum.js";
import type { ApprovalRequest } from "../types.js";

// The exact texts a seal's MAC is taken over. Each names its kind, so a request MAC never verifies as a decision's.

/** Everything an approver is shown or a resume relies on, except the input itself, bound through its hash. */
export function requestSealText(request: ApprovalRequest): string {
  return canonicalJson({
    v: 1,
    sealed: "approval-request",
    id: request.id,
    capabilityId: request.capabilityId,
    surface: request.surface,
    actor: { id: request.actor.id, kind: request.actor.kind },
    inputHash: request.inputHash,
    reasons: request.reasons,
    types: request.types,
    risk: request.risk,
    sideEffect: request.sideEffect,
    requestedAt: request.requestedAt.getTime(),
    expiresAt: request.expiresAt.getTime(),
    quorum: quorumOf(request),
    definitionDigest: request.definitionDigest ?? null,
    manifestDigest: request.manifestDigest ?? null,
  });
}

/** One decision (or one vote toward a quorum), chained to the request seal it decides. */
export function decisionSealText(init: {
  approvalId: string;
  requestSeal: string;
  status: "approved" | "rejected";
  approver: { id: string; kind: string };
  atMs: number;
}): string {
  return canonicalJson({
    v: 1,
    sealed: "approval-decision",
    approvalId: init.approvalId,
    requestSeal: init.requestSeal,
    status: init.status,
    approver: { id: init.approver.id, kind: init.approver.kind },
    at: init.atMs,
  });
}
