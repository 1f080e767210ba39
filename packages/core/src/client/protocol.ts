import type { OutcomeUnknown, RemoteExecutionResult } from "./types.js";

/** The wire protocol version carried by every response (docs/architecture/spec/distributed.md#distributed-1). */
export const REMOTE_PROTOCOL = 1 as const;

/** Invocation ids are caller-committed keys; this bounds them to what every journal can index. */
export const INVOCATION_ID_PATTERN: RegExp = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** A correlation id is a label: 1..200 characters, none of them control characters. */
export const CORRELATION_ID_PATTERN: RegExp = /^[^\p{Cc}]{1,200}$/u;

/**
 * True when the effect's outcome cannot be known from this answer; reconcile before repeating it.
 *
 * @example
 * import { isOutcomeUnknown, type RemoteExecutionResult } from "@orpc-agent/core/client";
 * declare const result: RemoteExecutionResult;
 * if (isOutcomeUnknown(result)) console.warn(result.reason);
 */
export function isOutcomeUnknown(r: RemoteExecutionResult): r is OutcomeUnknown {
  return r.status === "outcome-unknown";
}

/** True for a terminal answer: completed, failed or cancelled. */
export function isSettled<O>(r: RemoteExecutionResult<O>): r is Extract<RemoteExecutionResult<O>, { status: "completed" | "failed" | "cancelled" }> {
  return r.status === "completed" || r.status === "failed" || r.status === "cancelled";
}
