import { createKeyedMac, type ApprovalSealKey, type KeyedMac } from "@orpc-agent/core";
import type { MCPEnvelope } from "../catalog/envelope.js";
import { PrincipalBoundedMap } from "./principal-bounded-map.js";
import { createElicitationCompletions, type DecisionSubscription, type ElicitationCompletions } from "./elicitation-completions.js";
import { memoryLimitsOf } from "./memory-limits.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

// Built once per configuration by the governed server's preparation (server/prepare.ts); SDK-free, as the state it
// holds is protocol-neutral.

/** A principal declares its capabilities once (its latest `initialize` stands): the one key it has in `legacyCapabilities`. */
export const DECLARED_CAPABILITIES = "initialize";

/** An approval a 2025-11-25 client was sent to by `-32042`, remembered until the client retries the same call. */
export type LegacyPending = { approvalId: string; url: string; message: string };

export type ApprovalElicitation = {
  /** Protects the 2026-07-28 `requestState`. */
  mac: KeyedMac;
  /** By `principalKey`, then capability and input hash: 2025-11-25 retries carry no state, so the server remembers. */
  legacyPending: PrincipalBoundedMap<LegacyPending>;
  /**
   * Client capabilities a 2025-era client declared in `initialize`, by `principalKey` (stateless HTTP forgets them
   * otherwise), under the key {@link DECLARED_CAPABILITIES}.
   */
  legacyCapabilities: PrincipalBoundedMap<{ capabilities: unknown; expiresAtMs: number }>;
  /** With `urlElicitation.decisions`: `notifications/elicitation/complete` on connections that outlive the call. */
  completions: ElicitationCompletions | undefined;
};

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
  const limits = memoryLimitsOf(options);
  return { mac, legacyPending: new PrincipalBoundedMap(limits.legacyPending), legacyCapabilities: new PrincipalBoundedMap(limits.legacyCapabilities), completions };
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
