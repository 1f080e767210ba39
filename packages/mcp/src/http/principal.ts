import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { fingerprintOf } from "../session-identity.js";
import type { MCPHttpHandlerOptions } from "./options.js";

/** Every request under `allowUnauthenticated` (local development only): one principal, as there is no credential. */
const UNAUTHENTICATED = "unauthenticated";

/**
 * The principal owning the sessions a request may use, or `null` when the configuration cannot name one (the
 * request is refused). `authenticate` already refused an AuthInfo without its token.
 */
export function principalOf(
  authInfo: AuthInfo | undefined,
  sessionPrincipal: MCPHttpHandlerOptions["sessionPrincipal"],
): string | null | Promise<string | null> {
  if (authInfo === undefined) return UNAUTHENTICATED;
  if (sessionPrincipal === undefined) return fingerprintOf(authInfo);
  const principal = sessionPrincipal(authInfo);
  return typeof principal === "string" && principal !== "" ? `custom:${principal}` : null;
}
