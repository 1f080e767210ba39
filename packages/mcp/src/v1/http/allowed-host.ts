import { isHostAuthority } from "../../http/web-request-shape.js";
import { badHost, forbiddenHost } from "./refusals.js";

/**
 * Check 1: `403` for a `Host` (or browser `Origin`) outside `allowedHosts`, a malformed one included. Without
 * `allowedHosts` no host is judged, but a present `Host` that is no authority is a bad request (RFC 9112 §3.2).
 */
export function hostRefusal(request: Request, allowedHosts: readonly string[] | undefined): Response | undefined {
  if (allowedHosts !== undefined) return isAllowedHost(request, allowedHosts) ? undefined : forbiddenHost();
  const host = request.headers.get("host");
  return host !== null && !isHostAuthority(host) ? badHost() : undefined;
}

/**
 * Check 1 of docs/architecture/spec/adapters.md#adapters-3-9, DNS-rebinding protection done by the handler (the transport's own host options are
 * deprecated): the `Host` header must be allowed. A browser's `Origin`, when present, must name an allowed host too,
 * so a page on another site cannot drive a local server (decided here; non-browser clients send no `Origin`).
 */
function isAllowedHost(request: Request, allowedHosts: readonly string[]): boolean {
  const host = request.headers.get("host");
  if (host === null || !allowedHosts.includes(host)) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  return URL.canParse(origin) && allowedHosts.includes(new URL(origin).host);
}
