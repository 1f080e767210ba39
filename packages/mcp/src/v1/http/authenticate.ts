import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { isExpired } from "../session-identity.js";
import type { MCPHttpHandlerOptions } from "./options.js";
import { invalidToken, missingBearer, noPrincipal } from "./refusals.js";

// RFC 6750 §2.1: `Bearer` (case-insensitive scheme) and one b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Checks 2–4 of docs/architecture/spec/adapters.md#adapters-3-9: a `Bearer` credential, accepted by `verifyToken`, not expired. The verifier's
 * text and the token never reach the response. Under `allowUnauthenticated` the header is ignored.
 */
export async function authenticate(
  request: Request,
  options: Pick<MCPHttpHandlerOptions, "verifyToken" | "allowUnauthenticated" | "resourceMetadataUrl">,
): Promise<{ authInfo: AuthInfo | undefined } | Response> {
  if (options.allowUnauthenticated === true || options.verifyToken === undefined) return { authInfo: undefined };
  const match = BEARER.exec(request.headers.get("authorization") ?? "");
  if (match === null) return missingBearer(options.resourceMetadataUrl);
  let authInfo: AuthInfo | null;
  try {
    authInfo = await options.verifyToken(match[1]!, request);
  } catch {
    return invalidToken(options.resourceMetadataUrl);
  }
  if (typeof authInfo !== "object" || authInfo === null || isExpired(authInfo)) return invalidToken(options.resourceMetadataUrl);
  // Identity and session ownership follow the token; without it every caller would look alike.
  if (typeof authInfo.token !== "string" || authInfo.token === "") return noPrincipal("verifyToken");
  return { authInfo };
}
