import { CapabilityError } from "../../errors/capability-error.js";
import { approvalNotFoundError, approvalNotPendingError, readApprovalDecision } from "../../approvals/decide-refusals.js";
import { linkIdOf, MAX_TOKEN_LENGTH, newLinkNonce, signDecisionLink, verifyDecisionLink } from "../../approvals/links/token.js";
import type { DecideWithLinkOptions, DecisionLink, DecisionLinkAction, DecisionLinkContents, DecisionLinkRequest } from "../../approvals/links/types.js";
import type { DecisionLinkClaims } from "../../approvals/links/token.js";
import { assertMayDecide } from "../../approvals/may-decide.js";
import type { MacKeys } from "../../approvals/seal/mac.js";
import type { SelfApprovalRule } from "../../approvals/self-approval.js";
import type { ApprovalDecision, ApprovalRecord } from "../../approvals/types.js";
import type { GrantRecord } from "../../approvals/grants/types.js";

/** How a decision reached `decide` through a link: what the record must still bind, and the link's audit id. */
export type LinkDecision = { readonly inputHash: string; readonly linkId: string };

/**
 * `runtime.approvals.decisionLink` and `decideWithLink` (SI-4, docs/guides/decision-links.md). A link is one more way
 * to call `decide`: minting asks the same guards `decide` asks, and using one is `decide` as the named approver.
 */
export function createDecisionLinks(deps: {
  /** The links' keys; `undefined` when the runtime has no `approvals.links`. */
  mac: MacKeys | undefined;
  now: () => Date;
  selfApproval: SelfApprovalRule;
  /** The record as the runtime shows it (a record whose seal fails reads as unknown). */
  get(id: string): Promise<ApprovalRecord | null>;
  /** `runtime.approvals.decide`'s guarded path, told the decision came through a link. */
  decide(id: string, decision: ApprovalDecision, link: LinkDecision): Promise<ApprovalRecord & { grant?: GrantRecord }>;
}) {
  return {
    async decisionLink(approvalId: string, request: DecisionLinkRequest): Promise<DecisionLink> {
      return typed(async () => {
        const mac = enabled(deps.mac);
        const { decision, ttlMs } = readLinkRequest(request);
        const id = typeof approvalId === "string" ? approvalId : "<not a string>";
        const record = typeof approvalId === "string" ? await deps.get(approvalId) : null;
        if (record === null) throw approvalNotFoundError(id);
        if (record.status !== "pending") throw approvalNotPendingError(id, record.status);
        const nowMs = deps.now().getTime();
        const approvalEnds = new Date(record.expiresAt).getTime();
        if (!(nowMs < approvalEnds)) throw approvalNotPendingError(id, "expired");
        assertMayDecide(record, decision, deps.selfApproval);
        // Whole milliseconds: a fractional ttlMs would sign an expiry the verifier refuses as malformed.
        const expiresAtMs = Math.min(Math.floor(nowMs + ttlMs), approvalEnds);
        const token = await signDecisionLink(mac, {
          approvalId: record.id,
          inputHash: record.inputHash,
          approver: decision.approver,
          action: decision.status === "approved" ? "approve" : "reject",
          expiresAtMs,
          nonce: newLinkNonce(),
        });
        if (token.length > MAX_TOKEN_LENGTH) throw invalidField("approver", "The approver is too large to carry in a decision link.");
        return { token, expiresAt: new Date(expiresAtMs) };
      });
    },

    async decideWithLink(token: string, options?: DecideWithLinkOptions): Promise<ApprovalRecord & { grant?: GrantRecord }> {
      return typed(async () => {
        const mac = enabled(deps.mac);
        const comment = readComment(options);
        const claims = await liveClaims(mac, token, deps.now);
        const decision = readApprovalDecision({ status: statusOf(claims.action), approver: claims.approver, ...(comment === undefined ? {} : { comment }) });
        return deps.decide(claims.approvalId, decision, { inputHash: claims.inputHash, linkId: await linkIdOf(claims.nonce) });
      });
    },

    async readDecisionLink(token: string): Promise<DecisionLinkContents> {
      return typed(async () => {
        const claims = await liveClaims(enabled(deps.mac), token, deps.now);
        return { approvalId: claims.approvalId, approver: claims.approver, action: claims.action, expiresAt: new Date(claims.expiresAtMs) };
      });
    },
  };
}

/** The claims of a token these keys signed that has not expired on this runtime's clock; refused otherwise. */
async function liveClaims(mac: MacKeys, token: unknown, now: () => Date): Promise<DecisionLinkClaims> {
  const claims = await verifyDecisionLink(mac, token);
  if (claims === undefined) throw linkInvalidError();
  if (!(now().getTime() < claims.expiresAtMs)) throw new CapabilityError({ code: "APPROVAL_LINK_EXPIRED", cause: new Error("The decision link has expired") });
  return claims;
}

/** Asked by the guarded `decide` on the record it read: a link minted for another input is no link for this one. */
export function assertLinkBinding(record: ApprovalRecord, link: LinkDecision): void {
  if (record.inputHash !== link.inputHash) throw linkInvalidError();
}

/** Forged, malformed, another key's, or bound to an input the record no longer has: one answer for all. */
function linkInvalidError(): CapabilityError {
  return new CapabilityError({ code: "APPROVAL_LINK_INVALID", cause: new Error("The decision link is not one this runtime signed for this approval") });
}

function enabled(mac: MacKeys | undefined): MacKeys {
  if (mac === undefined) {
    throw new CapabilityError({ code: "APPROVAL_LINKS_DISABLED", cause: new Error("This runtime has no approvals.links keys (docs/guides/decision-links.md)") });
  }
  return mac;
}

/** Each field read once: a getter or Proxy cannot show the guards one approver and the token another (SI-4). */
function readLinkRequest(request: unknown): { decision: ApprovalDecision; ttlMs: number } {
  const given = typeof request === "object" && request !== null ? (request as Record<string, unknown>) : undefined;
  const read = (field: string): unknown => {
    try {
      return given?.[field];
    } catch {
      throw invalidField(field, `The ${field} cannot be read.`);
    }
  };
  const action = read("action");
  if (action !== "approve" && action !== "reject") throw invalidField("action", 'The action must be "approve" or "reject".');
  const ttlMs = read("ttlMs");
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) throw invalidField("ttlMs", "ttlMs must be a positive finite number of milliseconds.");
  // The approver's JSON copy, checked as `decide` checks it (UNAUTHENTICATED for a missing or anonymous one).
  const decision = readApprovalDecision({ status: statusOf(action), approver: read("approver") });
  return { decision, ttlMs };
}

function readComment(options: unknown): string | undefined {
  if (options === undefined) return undefined;
  let comment: unknown;
  try {
    comment = (options as { comment?: unknown } | null)?.comment;
  } catch {
    throw invalidField("comment", "The decision comment must be a string.");
  }
  if (comment !== undefined && typeof comment !== "string") throw invalidField("comment", "The decision comment must be a string.");
  return comment;
}

function statusOf(action: DecisionLinkAction): ApprovalDecision["status"] {
  return action === "approve" ? "approved" : "rejected";
}

function invalidField(field: string, message: string): CapabilityError {
  return new CapabilityError({ code: "INPUT_INVALID", stage: "approval", details: { issues: [{ path: [field], message }] }, cause: new Error(message) });
}

/** Every refusal typed; anything else (a coordinator's failure) is INTERNAL_ERROR, as from `decide`. */
async function typed<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw CapabilityError.isInstance(error) ? error : new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause: error });
  }
}
