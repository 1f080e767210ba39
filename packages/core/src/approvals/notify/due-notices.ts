import { isExpired } from "../expiry.js";
import type { ApprovalEscalationStep } from "./escalation.js";

/** A notice a sweep may send for one pending approval; `key` is what `claimNotice` claims, once across instances. */
export type DueNotice =
  | { readonly kind: "escalated"; readonly key: string; readonly step: number; readonly afterMs: number; readonly to: readonly string[] }
  | { readonly kind: "expiring"; readonly key: string; readonly expiresInMs: number };

/** The claim key of the expiry warning: one per approval, whatever `expiryWarningMs` is. */
const EXPIRING_NOTICE = "expiring";

/** The claim key of an escalation step; `afterMs` names the step (steps are strictly increasing). */
function escalationNotice(afterMs: number): string {
  return `escalate:${afterMs}`;
}

/**
 * The notices due at `at` for a request still pending, in the order they fell due: every escalation step whose moment
 * (`requestedAt + afterMs`) has passed, then the expiry warning once `expiresAt - warningMs` has. Nothing once the
 * request expired (strict, as the coordinators: at exactly `expiresAt` it is still pending). A warning whose moment
 * falls at or before the request is never due: the request itself said when it expires. A sweep that ran late sends
 * each step it missed, since each step names other people.
 */
export function dueNotices(
  record: { requestedAt: Date; expiresAt: Date },
  escalate: readonly ApprovalEscalationStep[] | undefined,
  warningMs: number | false,
  at: Date,
): DueNotice[] {
  if (isExpired(record.expiresAt, at)) return [];
  const requested = record.requestedAt.getTime();
  const expires = record.expiresAt.getTime();
  const now = at.getTime();
  if (!Number.isFinite(requested)) return [];
  const due: DueNotice[] = [];
  (escalate ?? []).forEach((step, index) => {
    const moment = requested + step.afterMs;
    if (moment <= now && moment <= expires) due.push({ kind: "escalated", key: escalationNotice(step.afterMs), step: index, afterMs: step.afterMs, to: step.to });
  });
  if (warningMs !== false) {
    const moment = expires - warningMs;
    if (moment > requested && moment <= now) due.push({ kind: "expiring", key: EXPIRING_NOTICE, expiresInMs: expires - now });
  }
  return due;
}
