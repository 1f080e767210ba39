import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { MCPServerOptions } from "../options.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

export type MCPHttpHandlerOptions<TContext = unknown> = MCPServerOptions<TContext> & {
  /**
   * Verifies each request's bearer token; `null`, a throw or a rejection answers `401 invalid_token`.
   * Required unless `allowUnauthenticated`.
   */
  verifyToken?: (token: string, request: Request) => AuthInfo | null | Promise<AuthInfo | null>;
  /** Local development only: the `Authorization` header is ignored and sessions carry no `authInfo`. */
  allowUnauthenticated?: true;
  /** RFC 9728 protected-resource metadata URL, echoed as `resource_metadata` in `WWW-Authenticate`. */
  resourceMetadataUrl?: string;
  /** Default `"stateful"` (`Mcp-Session-Id`). */
  sessions?: "stateful" | "stateless";
  /**
   * Who owns a stateful session: a request naming a session opened by another principal is answered exactly as an
   * unknown session (404). Default: the SHA-256 of the bearer token, so a refreshed token opens a new session. Return
   * a stable subject (e.g. `${authInfo.clientId}:${authInfo.extra?.sub}`) to keep sessions across token refreshes;
   * an empty or non-string answer refuses the request (500).
   */
  sessionPrincipal?: (authInfo: AuthInfo) => string;
  /** A stateful session with no request in flight and no open stream for this long is closed. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Opening one more closes that principal's least recently used session. Default 32. */
  maxSessionsPerPrincipal?: number;
  /**
   * DNS-rebinding protection: the `Host` header (and a browser's `Origin` host) must be one of these. Unset, only a
   * malformed `Host` is refused (`400`).
   */
  allowedHosts?: string[];
  /** Default 1 MiB. */
  maxBodyBytes?: number;
};

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 32;

/** TypeErrors for the HTTP-only options (docs/architecture/spec/adapters.md#adapters-3-9); `createMCPServer`'s own checks run as well. */
export function assertHttpOptions(options: MCPHttpHandlerOptions<unknown>): void {
  const hasVerifier = options.verifyToken !== undefined;
  if (options.allowUnauthenticated !== undefined && options.allowUnauthenticated !== true) {
    throw new ConfigurationError("createMCPHttpHandler: options.allowUnauthenticated can only be true.");
  }
  if (hasVerifier && options.allowUnauthenticated === true) {
    throw new ConfigurationError(
      "createMCPHttpHandler: choose either verifyToken or allowUnauthenticated: true, not both; an unauthenticated fallback is never implied.",
    );
  }
  if (!hasVerifier && options.allowUnauthenticated !== true) {
    throw new ConfigurationError(
      "createMCPHttpHandler: options.verifyToken is required: verify each request's bearer token and return its AuthInfo (or null). " +
        "For local development only, pass allowUnauthenticated: true instead.",
    );
  }
  if (hasVerifier && typeof options.verifyToken !== "function") throw new ConfigurationError("createMCPHttpHandler: options.verifyToken must be a function.");
  if (options.sessions !== undefined && options.sessions !== "stateful" && options.sessions !== "stateless") {
    throw new ConfigurationError('createMCPHttpHandler: options.sessions must be "stateful" or "stateless".');
  }
  assertPositiveInteger("maxBodyBytes", options.maxBodyBytes);
  assertPositiveInteger("sessionIdleTimeoutMs", options.sessionIdleTimeoutMs);
  assertPositiveInteger("maxSessionsPerPrincipal", options.maxSessionsPerPrincipal);
  if (options.sessionPrincipal !== undefined && typeof options.sessionPrincipal !== "function") {
    throw new ConfigurationError("createMCPHttpHandler: options.sessionPrincipal must be a function of the verified AuthInfo returning a string.");
  }
  const hosts = options.allowedHosts;
  if (hosts !== undefined && (!Array.isArray(hosts) || hosts.some((host) => typeof host !== "string" || host === ""))) {
    throw new ConfigurationError('createMCPHttpHandler: options.allowedHosts must be an array of Host header values, e.g. ["localhost:3000"].');
  }
  assertResourceMetadataUrl(options.resourceMetadataUrl);
}

function assertResourceMetadataUrl(url: unknown): void {
  if (url === undefined) return;
  // Echoed inside a quoted-string of WWW-Authenticate: an absolute URL without quotes or backslashes.
  if (typeof url !== "string" || /["\\\s]/.test(url) || !URL.canParse(url)) {
    throw new ConfigurationError("createMCPHttpHandler: options.resourceMetadataUrl must be an absolute URL (RFC 9728 protected-resource metadata).");
  }
}

function assertPositiveInteger(name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)) {
    throw new ConfigurationError(`createMCPHttpHandler: options.${name} must be a positive integer, got ${String(value)}.`);
  }
}
