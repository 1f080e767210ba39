import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import type { MCPHandlerOptions } from "./handler-options.js";

export type BearerGate = {
  /**
   * The RFC 9728 document's URL, named in every challenge; undefined unless this endpoint serves it (`resource` and
   * `authorizationServers`), so a challenge never points a client at a URL that answers no document.
   */
  resourceMetadataUrl: string | undefined;
  /** The verified `AuthInfo` (undefined on an `allowUnauthenticated` endpoint), or the 401/403 challenge to send as is. */
  authenticate(request: Request): Promise<AuthInfo | Response | undefined>;
};

/**
 * The OAuth resource-server gate, on the SDK's own `verifyBearerToken` and challenge builder: missing, malformed,
 * unverifiable, expired, expiry-less, wrong-audience and scope-list-less tokens answer 401; missing endpoint scopes 403.
 */
export function createBearerGate(options: MCPHandlerOptions<unknown>): BearerGate {
  const resource = options.resource === undefined ? undefined : new URL(String(options.resource));
  // `resource` alone is the audience check; the document (createResourceMetadata) needs the issuers too.
  const resourceMetadataUrl = resource === undefined || options.authorizationServers === undefined ? undefined : getOAuthProtectedResourceMetadataUrl(resource);
  const requiredScopes = options.requiredScopes ?? [];
  const verify = options.verifyToken;
  if (verify === undefined) return { resourceMetadataUrl, authenticate: async () => undefined };

  return {
    resourceMetadataUrl,
    async authenticate(request) {
      const verifier = {
        async verifyAccessToken(token: string): Promise<AuthInfo> {
          let info: AuthInfo | null;
          try {
            info = snapshot(await verify(token, request));
          } catch {
            info = null;
          }
          // Scopes must be a list: a space-delimited string (a JWT `scope` claim) would substring-match `includes`.
          if (info === null || !Array.isArray(info.scopes) || info.scopes.some((scope) => typeof scope !== "string")) {
            throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid token");
          }
          // A non-finite expiry (Infinity) is no expiry: refused like a missing one (docs/architecture/spec/amendments-2026-12.md#amendments-core-7-r3, fail closed).
          if (info.expiresAt !== undefined && !Number.isFinite(info.expiresAt)) throw new OAuthError(OAuthErrorCode.InvalidToken, "Token has no expiration time");
          return info;
        },
      };
      try {
        return await verifyBearerToken(request.headers.get("authorization"), {
          verifier,
          requiredScopes,
          ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }),
          ...(resource !== undefined && { expectedResource: resource }),
        });
      } catch (error) {
        return bearerAuthChallengeResponse(error, { requiredScopes, ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }) });
      }
    },
  };
}

/**
 * One read of the verifier's answer, inside its try: a throwing getter is an invalid token, and every later check
 * (ours, the SDK's, the scope check, `createContext`) sees the same values however often it reads them.
 */
function snapshot(returned: unknown): AuthInfo | null {
  if (typeof returned !== "object" || returned === null) return null;
  const copy: Record<string, unknown> = { ...returned };
  // Fields a class instance keeps on its prototype are read once too.
  for (const key of ["token", "clientId", "scopes", "expiresAt", "resource"]) if (!(key in copy)) copy[key] = (returned as Record<string, unknown>)[key];
  if (Array.isArray(copy.scopes)) copy.scopes = [...(copy.scopes as unknown[])];
  return copy as unknown as AuthInfo;
}
