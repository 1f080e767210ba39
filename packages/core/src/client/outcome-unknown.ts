import type { OutcomeUnknown } from "./types.js";

// Shared by the HTTP client and the invocation service; not part of the public entry.

const MESSAGES: Readonly<Record<OutcomeUnknown["reason"], string>> = {
  "in-progress": "This invocation is still running elsewhere; reconcile it later instead of repeating it.",
  "lease-lapsed": "The worker running this invocation stopped reporting; reconcile it before repeating it.",
  interrupted: "The operation was interrupted after it may have taken effect; reconcile it before repeating it.",
  "fenced-out": "This worker lost its claim on the invocation; reconcile it before repeating it.",
  transport: "The connection failed after the request was sent; reconcile this invocation before repeating it.",
  timeout: "No answer arrived in time after the request was sent; reconcile this invocation before repeating it.",
  aborted: "The request was aborted after it was sent; reconcile this invocation before repeating it.",
  "server-error": "The server failed to answer after the request was sent; reconcile this invocation before repeating it.",
  "unreadable-response": "The server's answer could not be read; reconcile this invocation before repeating it.",
};

export function outcomeUnknown(invocationId: string, reason: OutcomeUnknown["reason"]): OutcomeUnknown {
  return { protocol: 1, status: "outcome-unknown", invocationId, reason, message: MESSAGES[reason] };
}
