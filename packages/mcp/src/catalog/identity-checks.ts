import { isWellFormedActor } from "@orpc-agent/core/adapter";
import type { MCPIdentity } from "./governance-options.js";

// How both SDK paths read a `createContext` answer. Typed structurally, so neither path names the other's SDK.

/** A `createContext` answer whose actor is well formed (core's check); anything else refuses the request. */
export function isIdentity<TContext>(value: unknown): value is MCPIdentity<TContext> {
  if (typeof value !== "object" || value === null) return false;
  return isWellFormedActor((value as { actor?: unknown }).actor);
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
