import { hostHeaderValidationResponse } from "@modelcontextprotocol/server";
import { isHostAuthority } from "./web-request-shape.js";

/**
 * The endpoint's `Host` check, before anything else is answered (the RFC 9728 document included). A present `Host`
 * that is no authority (userinfo, a path, a bad port, ...) is refused as any foreign host is, `403`, when
 * `allowedHosts` is set: the SDK's own check reads only the hostname such a value parses to, so `127.0.0.1/x` or
 * `u@127.0.0.1` would pass it. Without `allowedHosts` it is a bad request (RFC 9112 §3.2) and no hostname is judged.
 */
export function hostRefusal(request: Request, allowedHosts: string[] | undefined): Response | undefined {
  const host = request.headers.get("host");
  if (host !== null && !isHostAuthority(host)) return refusal(allowedHosts === undefined ? 400 : 403, `Invalid Host header: ${host}`);
  return allowedHosts === undefined ? undefined : hostHeaderValidationResponse(request, allowedHosts);
}

/** The shape of the SDK's own Host refusal, so a malformed Host and a foreign one differ only in the text. */
function refusal(status: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers: { "Content-Type": "application/json" } });
}
