import { createKeyedMac, type ApprovalSealKey, type KeyedMac } from "@orpc-agent/core";
import type { MCPEnvelope } from "../catalog/envelope.js";
import { BoundedMap } from "./bounded-map.js";
import { createElicitationCompletions, type DecisionSubscription, type ElicitationCompletions } from "./elicitation-completions.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

// SDK-free on purpose: prepare.ts builds this once per configuration on both paths, and the v1 entry must not load
// the v2 SDK. Only the v2 path reads it.

/** Carried over `_meta` by MCP clients (W3C Trace Context). */
export type MCPTraceCarrier = { traceparent: string; tracestate?: string };

/** An approval a 2025-11-25 client was sent to by `-32042`, remembered until the client retries the same call. */
export type LegacyPending = { approvalId: string; url: string; message: string };

export type ApprovalElicitation = {
  /** Protects the 2026-07-28 `requestState`. */
  mac: KeyedMac;
  /** By `principalKey`, capability and input hash: 2025-11-25 retries carry no state, so the server remembers. */
  legacyPending: BoundedMap<string, LegacyPending>;
  /** Client capabilities a 2025-era client declared in `initialize`, by `principalKey` (stateless HTTP forgets them otherwise). */
  legacyCapabilities: BoundedMap<string, { capabilities: unknown; expiresAtMs: number }>;
  /** With `urlElicitation.decisions`: `notifications/elicitation/complete` on connections that outlive the call. */
  completions: ElicitationCompletions | undefined;
};

const MEMORY_LIMIT = 10_000;

/** Validates `urlElicitation` and `traceContext`; `undefined` when URL elicitation is off. */
export function prepareApprovalElicitation(options: {
  urlElicitation?: unknown;
  traceContext?: unknown;
  approvals?: { url?: unknown };
}): ApprovalElicitation | undefined {
  if (options.traceContext !== undefined && typeof options.traceContext !== "function") {
    throw new ConfigurationError("createMCPHandler: options.traceContext must be a function (carrier, run) => run() inside that trace context.");
  }
  const config = options.urlElicitation;
  if (config === undefined) return undefined;
  if (typeof config !== "object" || config === null) throw new ConfigurationError("createMCPHandler: options.urlElicitation must be { keys: [{ id, secret }] }.");
  if (typeof options.approvals?.url !== "function") {
    throw new ConfigurationError("createMCPHandler: options.urlElicitation needs options.approvals.url, the link into the approver UI the client opens.");
  }
  const { keys, decisions } = config as { keys?: readonly ApprovalSealKey[]; decisions?: unknown };
  const mac = createKeyedMac(keys as readonly ApprovalSealKey[], "createMCPHandler: options.urlElicitation");
  if (decisions !== undefined && typeof decisions !== "function") {
    throw new ConfigurationError("createMCPHandler: options.urlElicitation.decisions must be a function (listener) => unsubscribe.");
  }
  const completions = decisions === undefined ? undefined : createElicitationCompletions(decisions as DecisionSubscription);
  return { mac, legacyPending: new BoundedMap(MEMORY_LIMIT), legacyCapabilities: new BoundedMap(MEMORY_LIMIT), completions };
}

export type ApprovalEnvelope = Extract<MCPEnvelope, { status: "approval-required" }>;
