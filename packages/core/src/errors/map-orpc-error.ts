import { ORPCError } from "@orpc/server";
import { isValidationFailure, orpcErrorStatus } from "../orpc/errors.js";
import { CapabilityError } from "./capability-error.js";
import { GENERIC_MESSAGE } from "./codes.js";

/**
 * Classifies whatever the stage-11 call path threw (docs/architecture/spec/core.md#core-6-2 as amended, SI-9). `cause` always keeps the thrown value.
 * The capability's own input was validated at stage 5, so a validation failure here belongs to a nested call and is
 * concealed; a server-side status (5xx) crosses only when the capability declared it (`.errors()`, which oRPC marks
 * `defined`), because it is what an upstream or a nested client reports about internals.
 * @see docs/reference/errors.md#what-reaches-the-model
 */
export function mapOrpcError(thrown: unknown): CapabilityError {
  if (thrown instanceof CapabilityError) return thrown;
  if (CapabilityError.isInstance(thrown)) return fromOtherCopy(thrown);
  if (thrown instanceof ORPCError) {
    if (isValidationFailure(thrown)) {
      if (thrown.code === "INTERNAL_SERVER_ERROR") return new CapabilityError({ code: "OUTPUT_INVALID", cause: thrown });
      if (thrown.code === "BAD_REQUEST") return new CapabilityError({ code: "EXECUTION_FAILED", cause: thrown });
    }
    const message = thrown.message;
    if (thrown.code === "UNAUTHORIZED") {
      return new CapabilityError({ code: "UNAUTHENTICATED", ...(message ? { publicMessage: message } : {}), cause: thrown });
    }
    if (thrown.code === "FORBIDDEN") {
      return new CapabilityError({ code: "FORBIDDEN", ...(message ? { publicMessage: message } : {}), cause: thrown });
    }
    if (thrown.code === "INTERNAL_SERVER_ERROR" || (orpcErrorStatus(thrown) >= 500 && thrown.defined !== true)) {
      return new CapabilityError({ code: "EXECUTION_FAILED", cause: thrown });
    }
    // Declared `.errors()` and the handler's own client-error refusals (4xx) are the application's public vocabulary.
    return new CapabilityError({ code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: message || GENERIC_MESSAGE, cause: thrown });
  }
  return new CapabilityError({ code: "EXECUTION_FAILED", cause: thrown });
}

/**
 * A handler's `CapabilityError` from another copy of core keeps its meaning, rebuilt here from fields read once so
 * its own methods (`toJSON`) never run; anything this copy cannot rebuild (an unknown code) is concealed.
 */
function fromOtherCopy(foreign: CapabilityError): CapabilityError {
  try {
    const { code, stage, publicMessage, retryable, exposeToModel, details } = foreign as { [K in keyof CapabilityError]?: unknown };
    return new CapabilityError({
      code: code as CapabilityError["code"],
      ...(typeof stage === "string" && { stage: stage as CapabilityError["stage"] }),
      ...(typeof publicMessage === "string" && { publicMessage }),
      retryable: retryable === true,
      exposeToModel: exposeToModel === true,
      ...(details !== undefined && { details }),
      cause: foreign,
    });
  } catch {
    return new CapabilityError({ code: "EXECUTION_FAILED", cause: foreign });
  }
}
