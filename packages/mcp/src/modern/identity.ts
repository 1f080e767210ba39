import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { MCPIdentity } from "../options.js";
import type { MCPOptions, MCPRequestAuth } from "./options.js";

/**
 * One request's identity (adapters.md §3.3, per request since 2026-07-28). A refused or failing `createContext`
 * is the same JSON-RPC error, so a caller learns nothing from how it was refused (SI-3).
 */
export async function resolveIdentity<TContext>(options: MCPOptions<TContext>, auth: MCPRequestAuth): Promise<MCPIdentity<TContext>> {
  let identity: MCPIdentity<TContext> | null | undefined;
  try {
    identity = await options.createContext(auth);
  } catch {
    identity = undefined;
  }
  if (!isIdentity(identity)) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Unauthorized: this request has no identity.");
  return identity;
}

function isIdentity<TContext>(value: unknown): value is MCPIdentity<TContext> {
  const actor = (value as { actor?: { id?: unknown } } | null | undefined)?.actor;
  return typeof value === "object" && value !== null && typeof actor === "object" && actor !== null && typeof actor.id === "string";
}
