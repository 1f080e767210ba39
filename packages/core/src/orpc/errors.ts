import * as client from "@orpc/client";
import { ORPCError, ValidationError } from "@orpc/server";

// 1.x carries an HTTP status on every ORPCError; 2.x derives it from the code when the handler answers.
type StatusMap = Readonly<Record<string, number>>;
const statusMap = (client as unknown as { COMMON_ERROR_STATUS_MAP?: StatusMap }).COMMON_ERROR_STATUS_MAP;

/** The status an oRPC error answers with: its own on 1.x, the code's default mapping on 2.x (500 when unmapped). */
export function orpcErrorStatus(error: ORPCError<string, unknown>): number {
  const own = (error as { status?: unknown }).status;
  if (typeof own === "number") return own;
  return statusMap?.[error.code] ?? 500;
}

/** Whether an oRPC error reports a schema validation failure (both majors wrap a `ValidationError` as the cause). */
export function isValidationFailure(error: ORPCError<string, unknown>): boolean {
  return error.cause instanceof ValidationError;
}
