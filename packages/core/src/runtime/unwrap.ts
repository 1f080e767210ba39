import { CapabilityError } from "../errors/capability-error.js";
import type { ExecutionResult } from "./types.js";

/**
 * The output of a completed execution, or a throw: the envelope's error for failed/cancelled, and
 * `APPROVAL_REQUIRED` (with the record in `details.approval`) for a suspension. For server code; adapters never use it.
 */
export function unwrap<O>(result: ExecutionResult<O>): O {
  switch (result.status) {
    case "completed":
      return result.output;
    case "approval-required":
      throw new CapabilityError({ code: "APPROVAL_REQUIRED", details: { approval: result.approval } });
    default:
      throw result.error;
  }
}
