import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { MCPServerOptions } from "../options.js";

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
  /** DNS-rebinding protection: the `Host` header (and a browser's `Origin` host) must be one of these. */
  allowedHosts?: string[];
  /** Default 1 MiB. */
  maxBodyBytes?: number;
};

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** TypeErrors for the HTTP-only options (adapters.md §3.9); `createMCPServer`'s own checks run as well. */
export function assertHttpOptions(options: MCPHttpHandlerOptions<unknown>): void {
  const hasVerifier = options.verifyToken !== undefined;
  if (options.allowUnauthenticated !== undefined && options.allowUnauthenticated !== true) {
    throw new TypeError("createMCPHttpHandler: options.allowUnauthenticated can only be true.");
  }
  if (hasVerifier && options.allowUnauthenticated === true) {
    throw new TypeError(
      "createMCPHttpHandler: choose either verifyToken or allowUnauthenticated: true, not both; an unauthenticated fallback is never implied.",
    );
  }
  if (!hasVerifier && options.allowUnauthenticated !== true) {
    throw new TypeError(
      "createMCPHttpHandler: options.verifyToken is required: verify each request's bearer token and return its AuthInfo (or null). " +
        "For local development only, pass allowUnauthenticated: true instead.",
    );
  }
  if (hasVerifier && typeof options.verifyToken !== "function") throw new TypeError("createMCPHttpHandler: options.verifyToken must be a function.");
  if (options.sessions !== undefined && options.sessions !== "stateful" && options.sessions !== "stateless") {
    throw new TypeError('createMCPHttpHandler: options.sessions must be "stateful" or "stateless".');
  }
  const max = options.maxBodyBytes;
  if (max !== undefined && (typeof max !== "number" || !Number.isSafeInteger(max) || max <= 0)) {
    throw new TypeError(`createMCPHttpHandler: options.maxBodyBytes must be a positive integer, got ${String(max)}.`);
  }
  const hosts = options.allowedHosts;
  if (hosts !== undefined && (!Array.isArray(hosts) || hosts.some((host) => typeof host !== "string" || host === ""))) {
    throw new TypeError('createMCPHttpHandler: options.allowedHosts must be an array of Host header values, e.g. ["localhost:3000"].');
  }
  assertResourceMetadataUrl(options.resourceMetadataUrl);
}

function assertResourceMetadataUrl(url: unknown): void {
  if (url === undefined) return;
  // Echoed inside a quoted-string of WWW-Authenticate: an absolute URL without quotes or backslashes.
  if (typeof url !== "string" || /["\\\s]/.test(url) || !URL.canParse(url)) {
    throw new TypeError("createMCPHttpHandler: options.resourceMetadataUrl must be an absolute URL (RFC 9728 protected-resource metadata).");
  }
}
