import { createKeyedMac, type ApprovalSealKey, type KeyedMac } from "@orpc-agent/core";
import type { MCPEnvelope } from "../catalog/envelope.js";
import { createInMemoryElicitationStateStore, isElicitationStateStore, type MCPElicitationStateStore } from "./elicitation-state-store.js";
import { createElicitationCompletions, type DecisionSubscription, type ElicitationCompletions } from "./elicitation-completions.js";
import { memoryLimitsOf } from "./memory-limits.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

// Built once per configuration by the governed server's preparation (server/prepare.ts); SDK-free, as the state it
// holds is protocol-neutral.

export type ApprovalElicitation = {
  /** Protects the 2026-07-28 `requestState`. */
  mac: KeyedMac;
  /**
   * What 2025-era clients need remembered, by `principalKey`: the approvals their retries resume (a 2025-11-25 retry
   * carries no state) and the capabilities they declared in `initialize` (stateless HTTP forgets them otherwise).
   * `urlElicitation.store`, else this process's memory.
   */
  state: MCPElicitationStateStore;
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
  const { keys, decisions, store } = config as { keys?: readonly ApprovalSealKey[]; decisions?: unknown; store?: unknown };
  const mac = keyedMac(keys, adapter);
  if (decisions !== undefined && typeof decisions !== "function") {
    throw new ConfigurationError(`${adapter}: options.urlElicitation.decisions must be a function (listener) => unsubscribe.`);
  }
  if (store !== undefined && !isElicitationStateStore(store)) {
    throw new ConfigurationError(
      `${adapter}: options.urlElicitation.store must implement getPending, setPending, deletePending, getDeclaredCapabilities and setDeclaredCapabilities (MCPElicitationStateStore), e.g. createPgMCPElicitationStateStore({ query }) from @orpc-agent/postgres.`,
    );
  }
  const completions = decisions === undefined ? undefined : createElicitationCompletions(decisions as DecisionSubscription);
  return { mac, state: store ?? createInMemoryElicitationStateStore(memoryLimitsOf(options)), completions };
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
