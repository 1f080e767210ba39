import { GENERIC_MESSAGE, type ErrorCode } from "./codes.js";

/** What every adapter sends to a model for an error. docs/architecture/spec/core.md#core-9 "Model serialization". */
export type ModelError = { code: ErrorCode; message: string; retryable: boolean; details?: unknown };

/** The fields of a `CapabilityError` that decide what a model sees. */
type ModelVisible = { code: ErrorCode; publicMessage: string; retryable: boolean; exposeToModel: boolean; details?: unknown };

/** The serialization rule behind `CapabilityError#toJSON` and `toModelError`, on the fields alone. */
export function modelErrorOf(error: ModelVisible): ModelError {
  // Concealment hides the code and message, never the retryable bit: a transient failure stays transient.
  if (!error.exposeToModel) return { code: "INTERNAL_ERROR", message: GENERIC_MESSAGE, retryable: error.retryable === true };
  const out: ModelError = { code: error.code, message: error.publicMessage, retryable: error.retryable };
  if (error.code === "INPUT_INVALID" && error.details !== undefined) out.details = error.details;
  return out;
}
