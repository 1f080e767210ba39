import { ERROR_CODE_DEFAULTS, GENERIC_MESSAGE } from "../errors/codes.js";

/** What a concealed failure says on every surface (SI-8, SI-9). */
export const CONCEALED_MESSAGE = GENERIC_MESSAGE;

/** What unknown, unexposed and hidden capabilities all answer, byte for byte (SI-8). */
export const NOT_FOUND_MESSAGE = ERROR_CODE_DEFAULTS.CAPABILITY_NOT_FOUND.message;

/**
 * The model-facing line of an approval-required result: `"Awaiting approval: " + reasons.join("; ") + "."`, one
 * trailing `.` dropped from each reason so it never ends in `..`; `"Awaiting approval."` without reasons.
 *
 * @example
 * import { approvalMessage } from "@orpc-agent/core/adapter";
 * approvalMessage(["Refunds over 100 EUR need a manager."]); // "Awaiting approval: Refunds over 100 EUR need a manager."
 */
export function approvalMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "Awaiting approval.";
  return `Awaiting approval: ${reasons.map((reason) => (reason.endsWith(".") ? reason.slice(0, -1) : reason)).join("; ")}.`;
}
