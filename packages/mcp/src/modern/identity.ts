import { isWellFormedActor } from "@orpc-agent/core/adapter";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Actor } from "@orpc-agent/core";
import type { MCPIdentity } from "../governance-options.js";
import type { MCPOptions, MCPRequestAuth } from "./options.js";

/**
 * One request's identity (docs/architecture/spec/adapters.md#adapters-3-3, per request since 2026-07-28). A refused or failing `createContext`
 * is the same JSON-RPC error, so a caller learns nothing from how it was refused (SI-3).
 */
export async function resolveIdentity<TContext>(options: MCPOptions<TContext>, auth: MCPRequestAuth): Promise<MCPIdentity<TContext>> {
  let identity: MCPIdentity<TContext> | undefined;
  try {
    identity = snapshot(await options.createContext(auth));
  } catch {
    identity = undefined;
  }
  if (identity === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Unauthorized: this request has no identity.");
  return withActingClient(identity, auth.authInfo);
}

/**
 * The actor read once and checked on that copy, inside the caller's try: a throwing getter is a refusal like any
 * other, and a value that changes between reads cannot pass the check as one actor and run as another.
 */
function snapshot<TContext>(value: unknown): MCPIdentity<TContext> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const actor: unknown = (value as { actor?: unknown }).actor;
  if (typeof actor !== "object" || actor === null) return undefined;
  const identity = { ...(value as MCPIdentity<TContext>), actor: { ...(actor as Actor) } };
  return isIdentity<TContext>(identity) ? identity : undefined;
}

/**
 * The acting agent is the OAuth client the verified token was issued to: `via.id` = `authInfo.clientId`, replacing
 * whatever `createContext` put there; without verified auth info (stdio) the app's answer stands. Never from tool
 * arguments (SI-3), exactly as on the v1 path.
 */
function withActingClient<TContext>(identity: MCPIdentity<TContext>, authInfo: MCPRequestAuth["authInfo"]): MCPIdentity<TContext> {
  const clientId: unknown = authInfo?.clientId;
  if (typeof clientId !== "string" || clientId.length === 0) return identity;
  return { ...identity, actor: { ...identity.actor, via: { id: clientId } } };
}

function isIdentity<TContext>(value: unknown): value is MCPIdentity<TContext> {
  if (typeof value !== "object" || value === null) return false;
  return isWellFormedActor((value as { actor?: unknown }).actor);
}
