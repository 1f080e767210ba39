import type { AuthInfo } from "@modelcontextprotocol/server";
import type { MCPOptions } from "../server/options.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

/**
 * How requests are authenticated: a token verifier, or (local development only) none. Exclusive, so the compiler
 * refuses both or neither; the runtime check stays for JavaScript callers.
 */
export type MCPAuthentication =
  | {
      /**
       * Verifies each request's bearer token and returns its `AuthInfo` (with `expiresAt`, and `resource` from the
       * token's audience when `resource` is set); `null`, a throw or a rejection answers `401 invalid_token`.
       */
      verifyToken: (token: string, request: Request) => AuthInfo | null | Promise<AuthInfo | null>;
      allowUnauthenticated?: never;
    }
  | {
      /** Local development only: the `Authorization` header is ignored and requests carry no `authInfo`. */
      allowUnauthenticated: true;
      verifyToken?: never;
    };

/** Options of `createMCPHandler`: the governed server's options, how requests authenticate, and the HTTP limits. */
export type MCPHandlerOptions<TContext = unknown> = MCPOptions<TContext> & MCPAuthentication & {
  /**
   * This endpoint's public URL, its RFC 8707 resource identifier. Turns on the audience check (a token whose
   * `AuthInfo.resource` differs answers 401). With `authorizationServers` too, the RFC 9728 document is served and
   * every challenge names it; alone, challenges carry no `resource_metadata` (there is no document to point at).
   */
  resource?: string | URL;
  /** The authorization server issuer URL(s); with `resource`, the RFC 9728 document is served at its path-aware well-known URL. */
  authorizationServers?: (string | URL)[];
  /** Advertised as `scopes_supported` in the RFC 9728 document. */
  scopesSupported?: string[];
  /** Advertised as `resource_name`. */
  resourceName?: string;
  /** Scopes every request needs (`403 insufficient_scope` otherwise); per tool, use `meta.adapters.mcp.scopes`. */
  requiredScopes?: string[];
  /**
   * Browser `Origin` hostnames allowed (DNS rebinding, CSRF); `"any"` turns the check off.
   * @default localhost-class origins only (the SDK's `localhostAllowedOrigins()`)
   */
  allowedOrigins?: string[] | "any";
  /**
   * `Host` header hostnames allowed (port-agnostic); a malformed `Host` is refused like a foreign one. Unset, no hostname
   * is judged (a malformed `Host` still answers `400`); set it on a loopback-bound server.
   */
  allowedHosts?: string[];
  /**
   * The largest request body read; a larger one answers `413`.
   * @default 1_048_576 (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * 2025-era clients: `"stateless"` serves them per request from the same configuration; `"reject"` makes the
   * endpoint 2026-07-28 only.
   * @default "stateless"
   */
  legacy?: "stateless" | "reject";
};

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** TypeErrors for the HTTP options; the server options are checked as well. */
export function assertHandlerOptions(options: MCPHandlerOptions<unknown>): void {
  const fail = (message: string): never => {
    throw new ConfigurationError(`createMCPHandler: ${message}`);
  };
  const hasVerifier = options.verifyToken !== undefined;
  if (options.allowUnauthenticated !== undefined && options.allowUnauthenticated !== true) fail("options.allowUnauthenticated can only be true.");
  if (hasVerifier && options.allowUnauthenticated === true) fail("choose either verifyToken or allowUnauthenticated: true, not both.");
  if (!hasVerifier && options.allowUnauthenticated !== true) {
    fail("options.verifyToken is required: verify each request's bearer token and return its AuthInfo (or null). For local development only, pass allowUnauthenticated: true.");
  }
  if (hasVerifier && typeof options.verifyToken !== "function") fail("options.verifyToken must be a function.");
  if (options.resource !== undefined && !URL.canParse(String(options.resource))) fail("options.resource must be an absolute URL (this endpoint's public URL).");
  if (options.authorizationServers !== undefined) {
    if (options.resource === undefined) fail("options.authorizationServers needs options.resource (the RFC 9728 document names the resource).");
    if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0) fail("options.authorizationServers must be a non-empty array of issuer URLs.");
    for (const issuer of options.authorizationServers) if (!URL.canParse(String(issuer))) fail(`authorization server ${JSON.stringify(String(issuer))} is not an absolute URL.`);
  }
  for (const key of ["scopesSupported", "requiredScopes", "allowedHosts"] as const) {
    const list = options[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== "string" || item === "" || /[\s"\\]/.test(item)))) {
      fail(`options.${key} must be an array of non-empty strings without spaces or quotes.`);
    }
  }
  const origins = options.allowedOrigins;
  if (origins !== undefined && origins !== "any" && (!Array.isArray(origins) || origins.some((item) => typeof item !== "string" || item === ""))) {
    fail('options.allowedOrigins must be an array of hostnames or "any".');
  }
  if (options.maxBodyBytes !== undefined && (!Number.isSafeInteger(options.maxBodyBytes) || options.maxBodyBytes <= 0)) fail("options.maxBodyBytes must be a positive integer.");
  if (options.legacy !== undefined && options.legacy !== "stateless" && options.legacy !== "reject") fail('options.legacy must be "stateless" or "reject".');
}
