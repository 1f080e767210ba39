import type { CapabilityRegistry } from "@orpc-agent/core";

/**
 * What an approval card offers besides "allow once": "allow for this conversation", a standing grant (SI-13) of the
 * capability's own caps (`meta.agent.approval.grants`: `maxUses` more calls, for `maxTtlMs`), scoped to this chat.
 * Shown as written; the server computes it again when the answer arrives, so the browser only says yes or no to it.
 */
export type ConversationGrantOffer = { scope: "conversation"; uses: number; ttlMs: number };

/**
 * The offer for a capability in a chat, or `undefined` when there is none: the capability declares no grant caps,
 * its caps do not allow the `conversation` scope, or the chat has no conversation id to bind the grant to.
 */
export function conversationGrantOffer(registry: CapabilityRegistry, capabilityId: string, conversationId: string | undefined): ConversationGrantOffer | undefined {
  if (conversationId === undefined) return undefined;
  const caps = registry.get(capabilityId)?.meta.approval?.grants;
  if (caps === undefined || !caps.scopes.includes("conversation")) return undefined;
  return { scope: "conversation", uses: caps.maxUses, ttlMs: caps.maxTtlMs };
}
