import type { ApprovalRecord, CapabilityError, ExecutionResult } from "@orpc-agent/core";
import { approvalMessage, CONCEALED_MESSAGE, NOT_FOUND_MESSAGE, toModelError } from "@orpc-agent/core/adapter";

/** What the model receives (docs/architecture/spec/adapters.md#adapters-1-5), plus `expiresAt`/`url` on approvals (docs/architecture/spec/adapters.md#adapters-3-6). Key order is fixed. */
export type MCPEnvelope =
  | { status: "ok"; data: unknown; approvedWithChanges?: { changed: string[] } }
  | { status: "approval-required"; approvalId: string; message: string; expiresAt: string; url?: string }
  | { status: "error"; error: MCPModelError };

export type MCPModelError = { code: string; message: string; retryable: boolean; details?: unknown };

/** How approval envelopes guide the model (docs/architecture/spec/adapters.md#adapters-3-7). */
export type ApprovalGuidance = {
  url?: (record: ApprovalRecord) => string | undefined;
  resumeToolName?: string;
};

const CONCEALED_ERROR: MCPModelError = Object.freeze({ code: "INTERNAL_ERROR", message: CONCEALED_MESSAGE, retryable: false });

/** Unknown, unexposed, hidden and raw-id probes all look exactly like this (SI-8). */
export const NOT_FOUND_ENVELOPE: MCPEnvelope = Object.freeze({
  status: "error",
  error: Object.freeze({ code: "CAPABILITY_NOT_FOUND", message: NOT_FOUND_MESSAGE, retryable: false }),
});

/** An unexpected rejection: concealed, never a message (docs/architecture/spec/adapters.md#adapters-1-2 item 9). */
export const CONCEALED_ENVELOPE: MCPEnvelope = Object.freeze({ status: "error", error: CONCEALED_ERROR });

/** One deterministic envelope per status (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-3-6). */
export function toEnvelope(result: ExecutionResult, guidance: ApprovalGuidance): MCPEnvelope {
  switch (result.status) {
    case "completed":
      // An approval with changes says where the input that ran differs from what the model asked (never the values).
      return result.approvedWithChanges === undefined
        ? { status: "ok", data: result.output }
        : { status: "ok", data: result.output, approvedWithChanges: { changed: [...result.approvedWithChanges.changed] } };
    case "approval-required":
      return approvalEnvelope(result.approval, guidance);
    case "failed":
    case "cancelled":
      return { status: "error", error: serializeError(result.error) };
  }
}

/**
 * Core's model serialization (SI-9): concealed unless exposed, `details` only for `INPUT_INVALID`. Those details are
 * sent as the envelope schema declares them, the input's issues (`{ issues: [{ path, message }] }`); details of
 * another shape (a handler's own `INPUT_INVALID`) are left out, so `structuredContent` always validates.
 */
export function serializeError(error: CapabilityError): MCPModelError {
  const { details, ...model } = toModelError(error);
  if (details === undefined) return model;
  const issues = issuesOf(details);
  return issues === undefined ? model : { ...model, details: { issues } };
}

/** Each issue's `path` (strings) and `message`, nothing else; `undefined` for anything that has no such issues. */
function issuesOf(details: unknown): { path: string[]; message: string }[] | undefined {
  try {
    const issues = typeof details === "object" && details !== null ? (details as { issues?: unknown }).issues : undefined;
    if (!Array.isArray(issues)) return undefined;
    const read: { path: string[]; message: string }[] = [];
    for (const issue of issues as unknown[]) {
      const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
      if (!Array.isArray(path) || typeof message !== "string") return undefined;
      const segments = [...(path as unknown[])];
      if (!segments.every((segment) => typeof segment === "string")) return undefined;
      read.push({ path: segments as string[], message });
    }
    return read;
  } catch {
    // A getter or Proxy trap that throws: nothing readable to send.
    return undefined;
  }
}

function approvalEnvelope(record: ApprovalRecord, guidance: ApprovalGuidance): MCPEnvelope {
  const url = guidance.url?.(record);
  let message = approvalMessage(record.reasons);
  if (typeof url === "string") message += " Give the user the link in url, so that an authorized person can review and decide.";
  if (guidance.resumeToolName !== undefined) {
    message += ` Once it is approved, call ${guidance.resumeToolName} with this approvalId to run it.`;
  }
  const envelope: MCPEnvelope = {
    status: "approval-required",
    approvalId: record.id,
    message,
    expiresAt: new Date(record.expiresAt).toISOString(),
  };
  if (typeof url === "string") envelope.url = url;
  return envelope;
}
