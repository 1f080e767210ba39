import type { CapabilityError } from "./capability-error.js";
import { GENERIC_MESSAGE, type ErrorCode } from "./codes.js";

/** What every adapter sends to a model for an error. docs/architecture/spec/core.md#core-9 "Model serialization". */
export type ModelError = { code: ErrorCode; message: string; retryable: boolean; details?: unknown };

export function toModelError(error: CapabilityError): ModelError {
  // Concealment hides the code and message, never the retryable bit: a transient failure stays transient.
  if (!error.exposeToModel) return { code: "INTERNAL_ERROR", message: GENERIC_MESSAGE, retryable: error.retryable === true };
  const out: ModelError = { code: error.code, message: error.publicMessage, retryable: error.retryable };
  if (error.code === "INPUT_INVALID" && error.details !== undefined) out.details = error.details;
  return out;
}
