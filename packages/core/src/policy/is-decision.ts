import { isValidQuorum } from "../approvals/quorum.js";
import type { PolicyDecision } from "../capability/types.js";

/**
 * Whether a policy returned one of the four decision shapes (docs/architecture/spec/core.md#core-3-1 step 3); anything else,
 * `undefined` included, is a policy error. Extra fields are allowed and ignored (SI-6).
 */
export function isPolicyDecision(value: unknown): value is PolicyDecision {
  if (typeof value !== "object" || value === null) return false;
  const decision = value as Record<string, unknown>;
  switch (decision.type) {
    case "allow":
      return decision.metadata === undefined || isRecord(decision.metadata);
    case "deny":
      return optionalString(decision.code) && optionalString(decision.message);
    case "hide":
      return true;
    case "require-approval":
      return (
        typeof decision.reason === "string" &&
        decision.reason.length > 0 &&
        (decision.approvalType === undefined || (typeof decision.approvalType === "string" && decision.approvalType.length > 0)) &&
        (decision.expiresInMs === undefined ||
          (typeof decision.expiresInMs === "number" && Number.isFinite(decision.expiresInMs) && decision.expiresInMs > 0)) &&
        (decision.quorum === undefined || isValidQuorum(decision.quorum))
      );
    default:
      return false;
  }
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function isRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
