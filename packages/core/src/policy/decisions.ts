import { isValidQuorum } from "../approvals/quorum.js";
import type { PolicyDecision } from "../capability/types.js";

type AllowDecision = Extract<PolicyDecision, { type: "allow" }>;
type DenyDecision = Extract<PolicyDecision, { type: "deny" }>;
type HideDecision = Extract<PolicyDecision, { type: "hide" }>;
type RequireApprovalDecision = Extract<PolicyDecision, { type: "require-approval" }>;

// Pure constructors: an omitted field is absent from the decision, never `undefined` (docs/architecture/spec/core.md#core-3).

/**
 * Lets the operation proceed. `metadata` is recorded with the stance; keep it payload-free.
 *
 * @example
 * import { allow, definePolicy } from "@orpc-agent/core";
 * definePolicy("business-hours", () => allow({ window: "09-17" }));
 */
export function allow(metadata?: Record<string, unknown>): AllowDecision {
  return metadata === undefined ? { type: "allow" } : { type: "allow", metadata };
}

/**
 * Refuses the operation. `message` becomes the model-visible `publicMessage`; `code` lands in `details.code`.
 *
 * @example
 * import { allow, definePolicy, deny } from "@orpc-agent/core";
 * definePolicy("refund-cap", ({ input }) =>
 *   (input as { amount: number }).amount > 500 ? deny("OVER_LIMIT", "Refunds above 500 EUR need a manager.") : allow());
 */
export function deny(code?: string, message?: string): DenyDecision {
  const decision: DenyDecision = { type: "deny" };
  if (code !== undefined) decision.code = code;
  if (message !== undefined) decision.message = message;
  return decision;
}

/**
 * Conceals the capability: left out of discovery, indistinguishable from an unknown id elsewhere (SI-8).
 *
 * @example
 * import { allow, definePolicy, hide } from "@orpc-agent/core";
 * definePolicy("staff-only", (req) => (req.actor.attributes?.staff === true ? allow() : hide()), { phases: ["discovery", "invocation"] });
 */
export function hide(): HideDecision {
  return { type: "hide" };
}

/**
 * Requires a human decision before the operation runs.
 *
 * @example
 * import { requireApproval } from "@orpc-agent/core";
 * requireApproval({ reason: "Refund above 100 EUR", approvalType: "manager", expiresInMs: 3_600_000 });
 * // Four eyes: two distinct approvers, neither of them the requester.
 * requireApproval({ reason: "Refund above 1,000 EUR", approvalType: "finance", quorum: 2 });
 */
export function requireApproval(options: {
  reason: string;
  approvalType?: string;
  expiresInMs?: number;
  /** Distinct approvers needed (integer >= 1, default 1); a request takes the largest quorum demanded of it. */
  quorum?: number;
}): RequireApprovalDecision {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("requireApproval({ reason, approvalType?, expiresInMs?, quorum? }): options must be an object.");
  }
  const { reason, approvalType, expiresInMs, quorum } = options;
  if (typeof reason !== "string" || reason.length === 0) {
    throw new TypeError("requireApproval: `reason` must be a non-empty string.");
  }
  const decision: RequireApprovalDecision = { type: "require-approval", reason };
  if (approvalType !== undefined) {
    if (typeof approvalType !== "string" || approvalType.length === 0) {
      throw new TypeError("requireApproval: `approvalType` must be a non-empty string when given.");
    }
    decision.approvalType = approvalType;
  }
  if (expiresInMs !== undefined) {
    if (typeof expiresInMs !== "number" || !Number.isFinite(expiresInMs) || expiresInMs <= 0) {
      throw new TypeError("requireApproval: `expiresInMs` must be a finite number greater than 0 when given.");
    }
    decision.expiresInMs = expiresInMs;
  }
  if (quorum !== undefined) {
    if (!isValidQuorum(quorum)) throw new TypeError("requireApproval: `quorum` must be an integer >= 1 when given.");
    decision.quorum = quorum;
  }
  return decision;
}
