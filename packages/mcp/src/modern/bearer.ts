import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import type { MCPHandlerOptions } from "./http-options.js";

export type BearerGate = {
  /** The RFC 9728 document's URL, named in every challenge; undefined without `resource`. */
  resourceMetadataUrl: string | undefined;
  /** The verified `AuthInfo` (undefined on an `allowUnauthenticated` endpoint), or the 401/403 challenge to send as is. */
  authenticate(request: Request): Promise<AuthInfo | Response | undefined>;
};

/**
 * The OAuth resource-server gate, on the SDK's own `verifyBearerToken` and challenge builder: missing, malformed,
 * unverifiable, expired, expiry-less and wrong-audience tokens answer 401; missing endpoint scopes 403.
 */
export function createBearerGate(options: MCPHandlerOptions<unknown>): BearerGate {
  const resource = options.resource === undefined ? undefined : new URL(String(options.resource));
  const resourceMetadataUrl = resource === undefined ? undefined : getOAuthProtectedResourceMetadataUrl(resource);
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
            info = await verify(token, request);
          } catch {
            info = null;
          }
          // A non-finite expiry (Infinity) is no expiry: refused like a missing one (amendments §7 R3, fail closed).
          if (info === null || typeof info !== "object") throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid token");
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
