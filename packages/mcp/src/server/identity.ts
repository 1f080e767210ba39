import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Actor } from "@orpc-agent/core";
import type { MCPIdentity } from "../catalog/governance-options.js";
import type { MCPOptions, MCPRequestAuth } from "./options.js";
import { isIdentity, withActingClient } from "../catalog/identity-checks.js";
import { principalKey } from "../catalog/principal-key.js";

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
 * Who a request is, as a key for per-principal state; `undefined` when `createContext` refuses it. For requests the
 * server answers without running a governed call (a cancellation, a 2025-era `initialize`).
 */
export async function principalOfRequest<TContext>(options: MCPOptions<TContext>, auth: MCPRequestAuth): Promise<string | undefined> {
  try {
    return principalKey((await resolveIdentity(options, auth)).actor);
  } catch {
    return undefined;
  }
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
