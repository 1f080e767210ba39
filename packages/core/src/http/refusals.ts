import type { CapabilityClientFailure, RemoteError } from "../client/types.js";
import { GENERIC_MESSAGE } from "../internal/generic-message.js";

// Statuses that mean "refused before processing" (docs/architecture/spec/distributed.md#distributed-4): nothing ran, so the answer is definite.
// Any other status after dispatch leaves the outcome unknown.

const GENERIC: RemoteError = { code: "INTERNAL_ERROR", message: GENERIC_MESSAGE, retryable: false };

/**
 * The `failed` error for a definite refusal, or `undefined` when the status is not one. 400 (the strict request
 * schema) and channel misconfiguration (404, 405, 413, 415) are `ADAPTER_ERROR`, which is never exposed, so the
 * caller sees the generic error. 429 (decided here) is `FORBIDDEN`, retryable: refused for now, certainly not run.
 */
export function refusalError(status: number): RemoteError | undefined {
  switch (status) {
    case 400:
    case 404:
    case 405:
    case 413:
    case 415:
      return { ...GENERIC };
    case 401:
      return { code: "UNAUTHENTICATED", message: "Authentication is required.", retryable: false };
    case 403:
      return { code: "FORBIDDEN", message: "The operation is not permitted.", retryable: false };
    case 429:
      return { code: "FORBIDDEN", message: "Too many requests; try again later.", retryable: true };
    default:
      return undefined;
  }
}

export const genericError = (): RemoteError => ({ ...GENERIC });

/** The read-failure code of an HTTP status (describe, reconcile). */
export function readFailureCode(status: number, data: unknown): CapabilityClientFailure["code"] {
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 403 || status === 429) return "FORBIDDEN";
  if (status === 400 || status === 404 || status === 405 || status === 413 || status === 415) return "BAD_REQUEST";
  if (status === 503 && (data as { code?: unknown } | undefined)?.code === "TIMEOUT") return "TIMEOUT";
  if (status >= 200 && status < 300) return "PROTOCOL";
  return "SERVER_ERROR";
}
