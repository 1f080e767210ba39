import { isWellFormedActor } from "@orpc-agent/core/adapter";
import type { MCPIdentity } from "./governance-options.js";

// How both SDK paths read a `createContext` answer. Typed structurally, so neither path names the other's SDK.

/**
 * A `createContext` answer whose actor is well formed (core's check) and whose `conversationId`, when present, is a
 * non-empty string; anything else refuses the request rather than run it outside the conversation the app meant.
 */
export function isIdentity<TContext>(value: unknown): value is MCPIdentity<TContext> {
  if (typeof value !== "object" || value === null) return false;
  const conversationId: unknown = (value as { conversationId?: unknown }).conversationId;
  if (conversationId !== undefined && (typeof conversationId !== "string" || conversationId.length === 0)) return false;
  return isWellFormedActor((value as { actor?: unknown }).actor);
}

/** The invoke options that carry the request's conversation (SI-13): `{ conversationId }` when `createContext` gave one. */
export function conversationOf(identity: MCPIdentity<unknown>): { conversationId?: string } {
  return identity.conversationId === undefined ? {} : { conversationId: identity.conversationId };
}

/**
 * The acting agent is the OAuth client the verified token was issued to: `via.id` = `authInfo.clientId`, replacing
 * whatever `createContext` put there; without verified auth info (stdio) the app's answer stands. Never from tool
 * arguments (SI-3).
 */
export function withActingClient<TContext>(identity: MCPIdentity<TContext>, authInfo: { clientId?: unknown } | undefined): MCPIdentity<TContext> {
  const clientId: unknown = authInfo?.clientId;
  if (typeof clientId !== "string" || clientId.length === 0) return identity;
  return { ...identity, actor: { ...identity.actor, via: { id: clientId } } };
}
