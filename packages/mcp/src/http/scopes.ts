import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import type { CapabilityRegistry } from "@orpc-agent/core";
import type { ToolCatalog } from "../catalog/tool-catalog.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** `meta.adapters.mcp.scopes` of every capability exposed on mcp; malformed scopes throw at construction. */
export function collectToolScopes(registry: CapabilityRegistry): Map<string, readonly string[]> {
  const scopes = new Map<string, readonly string[]>();
  for (const capability of registry.capabilities()) {
    const mcp = capability.meta.adapters?.mcp as { scopes?: unknown } | undefined;
    const declared = mcp?.scopes;
    if (declared === undefined) continue;
    if (!Array.isArray(declared) || declared.length === 0 || declared.some((scope) => typeof scope !== "string" || !SCOPE_TOKEN.test(scope))) {
      throw new ConfigurationError(
        `createMCPHandler: meta.adapters.mcp.scopes of "${capability.id}" must be a non-empty array of OAuth scope tokens (RFC 6749 §3.3).`,
      );
    }
    if (capability.meta.expose.mcp === true) scopes.set(capability.id, Object.freeze([...declared] as string[]));
  }
  return scopes;
}

/**
 * The name a refused call to a tool the caller cannot see runs as: renamed in a 2025-era body, and for a 2026-07-28
 * request substituted by the server that serves it (the body stays as sent, so the SDK's `Mcp-Name` check judges
 * the client's own name). No tool can hold it (SEP-986 names have no space), so the runtime answers it as the unknown
 * tool it is: the caller gets exactly the answer an unknown name gets (SI-8), the capability never runs without its
 * scope (SI-2), and the audit records a probe under this name. It never appears in an answer.
 */
export const SCOPE_REFUSED_TOOL_NAME = "scope refused";

type CallMessage = { method: "tools/call"; params: { name: string } };

function isToolCall(message: unknown): message is CallMessage {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  return typeof m === "object" && m !== null && m.method === "tools/call" && typeof m.params === "object" && m.params !== null && typeof m.params.name === "string";
}

export type ScopeCheck = {
  toolScopes: Map<string, readonly string[]>;
  catalog: ToolCatalog;
  /** Whether the caller can see the capability at all: a hidden one is never challenged (SI-8, no existence oracle). */
  visible: (capabilityId: string) => Promise<boolean>;
  /**
   * The capability an approval of the caller's own would run through the resume tool; undefined for anyone else's
   * or an unknown id (the runtime conceals those). Throws when it cannot tell: the resume is then refused.
   */
  approvedCapability: (approvalId: string) => Promise<string | undefined>;
  endpointScopes: readonly string[];
  resourceMetadataUrl: string | undefined;
};

/**
 * Per-tool scopes over a JSON-RPC body (one message or a 2025-03 batch). A call to a visible tool needing scopes the
 * token lacks answers `403 insufficient_scope` naming them, so the client can step up. A call to a tool the caller
 * cannot see (hidden, or discovery failed) is refused: `renamed` is set and `body` carries the call renamed to
 * {@link SCOPE_REFUSED_TOOL_NAME}. Discovery decides only whether the refusal may say why, never whether the scope
 * applies (SI-2).
 */
export async function enforceToolScopes(body: unknown, authInfo: AuthInfo, check: ScopeCheck): Promise<{ challenge: Response } | { body: unknown; renamed: boolean }> {
  const held = new Set(authInfo.scopes);
  const messages: unknown[] = Array.isArray(body) ? [...body] : [body];
  let renamed = false;
  for (const [index, message] of messages.entries()) {
    if (!isToolCall(message)) continue;
    const { name } = message.params;
    const target = check.catalog.resolve(name);
    let id: string | undefined;
    if (target.kind === "invoke") id = target.id;
    else if (target.kind === "resume") {
      // The resume tool runs the approved operation: its scopes apply to the resuming token too.
      try {
        id = await check.approvedCapability(approvalIdOf(message));
      } catch {
        messages[index] = refused(message);
        renamed = true;
        continue;
      }
    }
    const needed = id === undefined ? undefined : check.toolScopes.get(id);
    if (id === undefined || needed === undefined || needed.every((scope) => held.has(scope))) continue;
    if (await check.visible(id)) {
      const requiredScopes = [...new Set([...check.endpointScopes, ...needed])];
      const tool = check.catalog.nameOf(id) ?? name;
      const error = new OAuthError(OAuthErrorCode.InsufficientScope, `The tool ${tool} needs the scopes: ${needed.join(" ")}`);
      return { challenge: bearerAuthChallengeResponse(error, { requiredScopes, ...(check.resourceMetadataUrl !== undefined && { resourceMetadataUrl: check.resourceMetadataUrl }) }) };
    }
    messages[index] = refused(message);
    renamed = true;
  }
  if (!renamed) return { body, renamed };
  return { body: Array.isArray(body) ? messages : messages[0], renamed };
}

function refused(message: CallMessage): CallMessage {
  return { ...message, params: { ...message.params, name: SCOPE_REFUSED_TOOL_NAME } };
}

/** The resume tool's `approvalId` argument as sent; a malformed one is the resume tool's own answer to give. */
function approvalIdOf(message: CallMessage): string {
  const args = (message.params as { arguments?: unknown }).arguments;
  const approvalId = typeof args === "object" && args !== null ? (args as { approvalId?: unknown }).approvalId : undefined;
  return typeof approvalId === "string" ? approvalId : "";
}
