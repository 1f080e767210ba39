import { describeValue } from "../../internal/describe-value.js";
import { isPlainObject } from "../../internal/plain-object.js";

/**
 * One escalation step of `meta.agent.approval.escalate`: when a request is still pending `afterMs` after it was asked,
 * `runtime.approvals.sweep()` sends `approval.escalated` naming `to`. `to` is opaque to core: roles, channels, whatever
 * the app's notifier routes on. docs/guides/notifying-approvers.md#escalation-and-expiry-warnings
 */
export type ApprovalEscalationStep = {
  /** Milliseconds after `requestedAt`; a positive integer, strictly increasing along the list. */
  afterMs: number;
  /** Whom the notifier tells: a non-empty list of non-blank strings. */
  to: readonly string[];
};

/** The most steps one capability may declare: escalation is a short chain of people, not a schedule. */
const MAX_ESCALATION_STEPS = 10;

/**
 * What is wrong with `meta.agent.approval.escalate`, one message per problem, each starting where `approval.escalate`
 * ends (` must …`, `[1].afterMs must …`). Empty when it is a valid list of steps.
 */
export function escalationProblems(escalate: unknown): string[] {
  if (!Array.isArray(escalate) || escalate.length === 0 || escalate.length > MAX_ESCALATION_STEPS) {
    return [` must be a non-empty array of at most ${MAX_ESCALATION_STEPS} steps { afterMs, to }, got ${describeValue(escalate)}`];
  }
  const problems: string[] = [];
  let previous = 0;
  escalate.forEach((step: unknown, index) => {
    if (!isPlainObject(step)) {
      problems.push(`[${index}] must be a plain object { afterMs, to }, got ${describeValue(step)}`);
      return;
    }
    for (const key of Object.keys(step)) if (key !== "afterMs" && key !== "to") problems.push(`[${index}].${key} is not an escalation field (afterMs, to)`);
    const { afterMs, to } = step;
    if (typeof afterMs !== "number" || !Number.isSafeInteger(afterMs) || afterMs < 1) {
      problems.push(`[${index}].afterMs must be a positive integer (milliseconds after the request), got ${describeValue(afterMs)}`);
    } else {
      // Strictly increasing, so each step is one later moment and a step's afterMs names it (its notice key).
      if (afterMs <= previous) problems.push(`[${index}].afterMs must be greater than the step before it (${previous}), got ${afterMs}`);
      previous = Math.max(previous, afterMs);
    }
    if (!Array.isArray(to) || to.length === 0 || to.some((entry) => typeof entry !== "string" || entry.trim() === "")) {
      problems.push(`[${index}].to must be a non-empty array of non-blank strings (roles, channels: whatever your notifier routes), got ${describeValue(to)}`);
    }
  });
  return problems;
}
