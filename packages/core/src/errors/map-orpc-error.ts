import { ORPCError, ValidationError } from "@orpc/server";
import { CapabilityError } from "./capability-error.js";
import { toPublicIssues } from "./issues.js";

/** Classifies whatever the oRPC call path threw (core.md §6.2). `cause` always keeps the thrown value. */
export function mapOrpcError(thrown: unknown): CapabilityError {
  if (thrown instanceof CapabilityError) return thrown;
  if (thrown instanceof ORPCError) {
    const cause = thrown.cause;
    if (cause instanceof ValidationError) {
      if (thrown.code === "BAD_REQUEST") {
        return new CapabilityError({ code: "INPUT_INVALID", details: { issues: toPublicIssues(cause.issues) }, cause: thrown });
      }
      if (thrown.code === "INTERNAL_SERVER_ERROR") return new CapabilityError({ code: "OUTPUT_INVALID", cause: thrown });
    }
    const message = thrown.message;
    if (thrown.code === "UNAUTHORIZED") {
      return new CapabilityError({ code: "UNAUTHENTICATED", ...(message ? { publicMessage: message } : {}), cause: thrown });
    }
    if (thrown.code === "FORBIDDEN") {
      return new CapabilityError({ code: "FORBIDDEN", ...(message ? { publicMessage: message } : {}), cause: thrown });
    }
    if (thrown.code === "INTERNAL_SERVER_ERROR") return new CapabilityError({ code: "EXECUTION_FAILED", cause: thrown });
    // Declared `.errors()` and other deliberate oRPC errors are the application's public vocabulary.
    return new CapabilityError({ code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: message || "The operation failed.", cause: thrown });
  }
  return new CapabilityError({ code: "EXECUTION_FAILED", cause: thrown });
}
