// Fixed refusal responses (docs/architecture/spec/adapters.md#adapters-3-9): JSON-RPC error bodies shaped like the SDK transport's own, carrying
// neither the token nor any verifier or error text.

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Check 1: the `Host` (or a browser `Origin`) is not an allowed host. */
export const forbiddenHost = () => jsonRpcError(403, -32000, "Forbidden: this host is not allowed.");

/** Check 1 without `allowedHosts`: the `Host` header is no `host[:port]` authority. */
export const badHost = () => jsonRpcError(400, -32000, "Bad Request: the Host header is malformed.");

/** Check 2: no `Authorization: Bearer <token>`. RFC 6750 §3: no error code when credentials are simply missing. */
export const missingBearer = (resourceMetadataUrl: string | undefined) =>
  jsonRpcError(401, -32000, "Unauthorized: a bearer token is required.", { "www-authenticate": challenge(undefined, resourceMetadataUrl) });

/** Checks 3 and 4: the verifier refused the token, failed, or the token is expired. */
export const invalidToken = (resourceMetadataUrl: string | undefined) =>
  jsonRpcError(401, -32000, "Unauthorized: the bearer token is invalid or expired.", {
    "www-authenticate": challenge("invalid_token", resourceMetadataUrl),
  });

/** Check 5. */
export const bodyTooLarge = () => jsonRpcError(413, -32000, "Payload Too Large: the request body exceeds the configured limit.");

/** An `Mcp-Session-Id` this handler does not know: the transport's own answer (docs/architecture/spec/adapters.md#adapters-3-9 "Sessions"). */
export const sessionNotFound = () => jsonRpcError(404, -32001, "Session not found");

/**
 * The server's own configuration cannot tell who the caller is: `verifyToken` returned an AuthInfo without its
 * token, or `sessionPrincipal` no principal. Refused rather than served under a shared constant identity.
 */
export const noPrincipal = (which: "verifyToken" | "sessionPrincipal") =>
  jsonRpcError(
    500,
    -32603,
    which === "verifyToken"
      ? "Internal error: verifyToken returned an AuthInfo without its token."
      : "Internal error: sessionPrincipal returned no principal.",
  );

/**
 * Under `allowUnauthenticated`, `createContext` refused the request: with no credential and no identity, nothing
 * could own or be shown a session. The same answer however it refused (SI-3).
 */
export const noIdentity = () => jsonRpcError(403, -32000, "Unauthorized: this request has no identity.");

/** An unexpected failure inside the handler; its text stays on the server. */
export const internalError = () => jsonRpcError(500, -32603, "Internal error");

function challenge(error: string | undefined, resourceMetadataUrl: string | undefined): string {
  const params: string[] = [];
  if (error !== undefined) params.push(`error="${error}"`);
  if (resourceMetadataUrl !== undefined) params.push(`resource_metadata="${resourceMetadataUrl}"`);
  return params.length === 0 ? "Bearer" : `Bearer ${params.join(", ")}`;
}
