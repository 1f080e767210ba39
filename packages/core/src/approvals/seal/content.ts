import { canonicalJson } from "../canonical-json.js";
import { quorumOf } from "../quorum.js";
import type { ApprovalRequest } from "../types.js";
import type { GrantTerms } from "../grants/types.js";

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
    // Only when present, so the seals of records stored before conversations existed still verify.
    ...(typeof request.conversationId === "string" ? { conversationId: request.conversationId } : {}),
  });
}

/**
 * A standing grant's terms (SI-13): everything that decides which calls it covers. The counters (`usesLeft`, `spent`)
 * and the revocation are the store's to change, so they are left out; the runtime bounds them by the sealed `uses`
 * and `budget.max`.
 */
export function grantSealText(grant: GrantTerms): string {
  return canonicalJson({
    v: 1,
    sealed: "grant",
    id: grant.id,
    capabilityId: grant.capabilityId,
    definitionDigest: grant.definitionDigest,
    actor: jsonForm(grant.actor),
    surface: grant.surface,
    scope: grant.scope,
    conversationId: grant.conversationId ?? null,
    types: grant.types,
    conditions: jsonForm(grant.conditions),
    uses: grant.uses,
    budget: grant.budget === undefined ? null : { path: grant.budget.path, max: grant.budget.max },
    issuers: jsonForm(grant.issuers),
    approvalId: grant.approvalId ?? null,
    issuedAt: grant.issuedAt.getTime(),
    expiresAt: grant.expiresAt.getTime(),
  });
}

/** One decision (or one vote toward a quorum), chained to the request seal it decides. */
export function decisionSealText(init: {
  approvalId: string;
  requestSeal: string;
  status: "approved" | "rejected";
  approver: { id: string; kind: string };
  comment?: unknown;
  /** Approve with changes: the edited input's hash, which the approval binds instead of the request's. */
  inputHash?: unknown;
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
    // Only on an edit, so the seals of decisions made before edits existed still verify; adding, removing or changing
    // it on a stored decision breaks the seal (SI-8).
    ...(typeof init.inputHash === "string" ? { inputHash: init.inputHash } : {}),
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
