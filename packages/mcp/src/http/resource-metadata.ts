import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import type { MCPHandlerOptions } from "./handler-options.js";

/**
 * The RFC 9728 protected-resource metadata document, answered at its path-aware well-known URL
 * (`/.well-known/oauth-protected-resource/<path>`). Hand-built rather than the SDK's `oauthMetadataResponse`:
 * that one needs the authorization server's full RFC 8414 document and names a single issuer.
 */
export function createResourceMetadata(options: MCPHandlerOptions<unknown>): ((request: Request) => Response | undefined) | undefined {
  if (options.resource === undefined || options.authorizationServers === undefined) return undefined;
  const resource = new URL(String(options.resource));
  const path = new URL(getOAuthProtectedResourceMetadataUrl(resource)).pathname;
  const body = JSON.stringify({
    resource: resource.href,
    authorization_servers: options.authorizationServers.map((issuer) => new URL(String(issuer)).href),
    ...(options.scopesSupported !== undefined && { scopes_supported: options.scopesSupported }),
    bearer_methods_supported: ["header"],
    ...(options.resourceName !== undefined && { resource_name: options.resourceName }),
  });
  const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS", "access-control-allow-headers": "mcp-protocol-version" };
  return (request) => {
    if (new URL(request.url).pathname !== path) return undefined;
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { ...cors, allow: "GET, OPTIONS" } });
    return new Response(body, { status: 200, headers: { ...cors, "content-type": "application/json", "cache-control": "max-age=300" } });
  };
}
