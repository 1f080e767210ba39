import type { PolicyDecision } from "./types.js";

const isOptionalString = (v: unknown) => v === undefined || typeof v === "string";

/** Anything but one of the four decision shapes counts as a policy error (SI-7). */
export function isPolicyDecision(value: unknown): value is PolicyDecision {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  switch (d.type) {
    case "allow":
      return d.metadata === undefined || (typeof d.metadata === "object" && d.metadata !== null && !Array.isArray(d.metadata));
    case "deny":
      return isOptionalString(d.code) && isOptionalString(d.message);
    case "hide":
      return true;
    case "require-approval":
      return (
        typeof d.reason === "string" &&
        d.reason.length > 0 &&
        (d.approvalType === undefined || (typeof d.approvalType === "string" && d.approvalType.length > 0)) &&
        (d.expiresInMs === undefined || (typeof d.expiresInMs === "number" && Number.isFinite(d.expiresInMs) && d.expiresInMs > 0))
      );
    default:
      return false;
  }
}
