import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import type { CapabilityRegistry } from "@orpc-agent/core";
import type { ToolCatalog } from "../tool-catalog.js";

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** `meta.adapters.mcp.scopes` of every capability exposed on mcp; malformed scopes throw at construction. */
export function collectToolScopes(registry: CapabilityRegistry): Map<string, readonly string[]> {
  const scopes = new Map<string, readonly string[]>();
  for (const capability of registry.capabilities()) {
    const mcp = capability.meta.adapters?.mcp as { scopes?: unknown } | undefined;
    const declared = mcp?.scopes;
    if (declared === undefined) continue;
    if (!Array.isArray(declared) || declared.length === 0 || declared.some((scope) => typeof scope !== "string" || !SCOPE_TOKEN.test(scope))) {
      throw new TypeError(
        `createMCPHandler: meta.adapters.mcp.scopes of "${capability.id}" must be a non-empty array of OAuth scope tokens (RFC 6749 §3.3).`,
      );
    }
    if (capability.meta.expose.mcp === true) scopes.set(capability.id, Object.freeze([...declared] as string[]));
  }
  return scopes;
}

/** The `tools/call` names of a JSON-RPC body (one message or a 2025-03 batch). */
export function calledToolNames(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const names: string[] = [];
  for (const message of messages) {
    const m = message as { method?: unknown; params?: { name?: unknown } } | null;
    if (typeof m === "object" && m !== null && m.method === "tools/call" && typeof m.params?.name === "string") names.push(m.params.name);
  }
  return names;
}

export type ScopeCheck = {
  toolScopes: Map<string, readonly string[]>;
  catalog: ToolCatalog;
  /** Whether the caller can see the capability at all: a hidden one is never challenged (SI-8, no existence oracle). */
  visible: (capabilityId: string) => Promise<boolean>;
  endpointScopes: readonly string[];
  resourceMetadataUrl: string | undefined;
};

/** `403 insufficient_scope` naming the scopes a visible tool needs and the token lacks, so the client can step up. */
export async function scopeChallenge(names: string[], authInfo: AuthInfo, check: ScopeCheck): Promise<Response | undefined> {
  const held = new Set(authInfo.scopes);
  for (const name of names) {
    const target = check.catalog.resolve(name);
    if (target.kind !== "invoke") continue;
    const needed = check.toolScopes.get(target.id);
    if (needed === undefined || needed.every((scope) => held.has(scope))) continue;
    if (!(await check.visible(target.id))) continue;
    const requiredScopes = [...new Set([...check.endpointScopes, ...needed])];
    return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, `The tool ${name} needs the scopes: ${needed.join(" ")}`), {
      requiredScopes,
      ...(check.resourceMetadataUrl !== undefined && { resourceMetadataUrl: check.resourceMetadataUrl }),
    });
  }
  return undefined;
}
