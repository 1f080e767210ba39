import { createKeyedMac, type ApprovalSealKey, type KeyedMac } from "@orpc-agent/core";
import type { MCPEnvelope } from "../catalog/envelope.js";
import { BoundedMap } from "./bounded-map.js";
import { createElicitationCompletions, type DecisionSubscription, type ElicitationCompletions } from "./elicitation-completions.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

// Built once per configuration by the governed server's preparation (server/prepare.ts); SDK-free, as the state it
// holds is protocol-neutral.

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

/**
 * Validates `urlElicitation`; `undefined` when URL elicitation is off. `adapter` is the function the application
 * called, named in every message.
 */
export function prepareApprovalElicitation(
  options: { urlElicitation?: unknown; approvals?: { url?: unknown } },
  adapter: string,
): ApprovalElicitation | undefined {
  const config = options.urlElicitation;
  if (config === undefined) return undefined;
  if (typeof config !== "object" || config === null) throw new ConfigurationError(`${adapter}: options.urlElicitation must be { keys: [{ id, secret }] }.`);
  if (typeof options.approvals?.url !== "function") {
    throw new ConfigurationError(`${adapter}: options.urlElicitation needs options.approvals.url, the link into the approver UI the client opens.`);
  }
  const { keys, decisions } = config as { keys?: readonly ApprovalSealKey[]; decisions?: unknown };
  const mac = keyedMac(keys, adapter);
  if (decisions !== undefined && typeof decisions !== "function") {
    throw new ConfigurationError(`${adapter}: options.urlElicitation.decisions must be a function (listener) => unsubscribe.`);
  }
  const completions = decisions === undefined ? undefined : createElicitationCompletions(decisions as DecisionSubscription);
  return { mac, legacyPending: new BoundedMap(MEMORY_LIMIT), legacyCapabilities: new BoundedMap(MEMORY_LIMIT), completions };
}

/** Core's seal-key checks, reported as the adapter's other build-time mistakes are: a `ConfigurationError`. */
function keyedMac(keys: readonly ApprovalSealKey[] | undefined, adapter: string): KeyedMac {
  try {
    return createKeyedMac(keys as readonly ApprovalSealKey[], `${adapter}: options.urlElicitation`);
  } catch (error) {
    if (error instanceof TypeError && !ConfigurationError.isInstance(error)) throw new ConfigurationError(error.message, { cause: error });
    throw error;
  }
}

export type ApprovalEnvelope = Extract<MCPEnvelope, { status: "approval-required" }>;
