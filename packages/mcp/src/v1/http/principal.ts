import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { principalKey } from "../../catalog/principal-key.js";
import { fingerprintOf, judgeSession } from "../session-identity.js";
import type { MCPHttpHandlerOptions } from "./options.js";

/** `createContext` refused a request that carries no credential: it has no principal to own a session. */
export const NO_IDENTITY = Symbol("no identity");

/**
 * The principal owning the sessions a request may use; `null` when the configuration cannot name one, `NO_IDENTITY`
 * when `createContext` refuses an unauthenticated request (both are refused). `authenticate` already refused an
 * AuthInfo without its token.
 *
 * With a credential: its SHA-256 fingerprint (v1 judges a credential once per session, so one credential is one
 * identity), or the app's `sessionPrincipal`. Without one (`allowUnauthenticated`, as behind an authenticating proxy
 * that tells `createContext` who is asking): the principal `createContext` resolves for this request, since nothing
 * else tells callers apart, never one constant that every caller shares (SI-3).
 */
export async function principalOf<TContext>(
  authInfo: AuthInfo | undefined,
  options: Pick<MCPHttpHandlerOptions<TContext>, "sessionPrincipal" | "createContext">,
  sessionId: string | undefined,
): Promise<string | null | typeof NO_IDENTITY> {
  if (authInfo === undefined) {
    const identity = await judgeSession(options.createContext, sessionId === undefined ? {} : { sessionId });
    return identity === undefined ? NO_IDENTITY : principalKey(identity.actor);
  }
  if (options.sessionPrincipal === undefined) return fingerprintOf(authInfo);
  const principal = options.sessionPrincipal(authInfo);
  return typeof principal === "string" && principal !== "" ? `custom:${principal}` : null;
}
