/**
 * Check 1 of docs/architecture/spec/adapters.md#adapters-3-9, DNS-rebinding protection done by the handler (the transport's own host options are
 * deprecated): the `Host` header must be allowed. A browser's `Origin`, when present, must name an allowed host too,
 * so a page on another site cannot drive a local server (decided here; non-browser clients send no `Origin`).
 */
export function isAllowedHost(request: Request, allowedHosts: readonly string[]): boolean {
  const host = request.headers.get("host");
  if (host === null || !allowedHosts.includes(host)) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  return URL.canParse(origin) && allowedHosts.includes(new URL(origin).host);
}
