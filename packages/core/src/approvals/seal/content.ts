import { canonicalJson } from "../canonical-json.js";
import { quorumOf } from "../quorum.js";
import type { ApprovalRequest } from "../types.js";

// The exact texts a seal's MAC is taken over. Each names its kind, so a request MAC never verifies as a decision's.

/** Everything an approver is shown or a resume relies on; the validated input is bound through its hash. */
export function requestSealText(request: ApprovalRequest): string {
  return canonicalJson({
    v: 1,
    sealed: "approval-request",
    id: request.id,
    capabilityId: request.capabilityId,
    surface: request.surface,
    // The whole requester, attributes and acting agent included: policies read them at resume (SI-3).
    actor: jsonForm(request.actor),
    inputHash: request.inputHash,
    // Resume validates the submitted input again, so it is bound too (absent and null alike: no JSON form to keep).
    submittedInput: request.submittedInput == null ? null : jsonForm(request.submittedInput),
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
  comment?: unknown;
  atMs: number;
}): string {
  return canonicalJson({
    v: 1,
    sealed: "approval-decision",
    approvalId: init.approvalId,
    requestSeal: init.requestSeal,
    status: init.status,
    // The whole approver and the comment: policies and the audit read both through the record.
    approver: jsonForm(init.approver),
    comment: typeof init.comment === "string" ? init.comment : null,
    at: init.atMs,
  });
}

/**
 * A value as every coordinator stores and returns it: its JSON form (a JSON store drops `undefined` and applies
 * `toJSON`), so a record sealed before storing verifies after a round trip. Throws when there is no JSON form.
 */
function jsonForm(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("no JSON form");
  return JSON.parse(text);
}
