// What a Node request must look like for a web `Request` to carry it faithfully.

// RFC 9110 §7.2: Host = uri-host [ ":" port ]; uri-host is an IP literal, an IPv4 address or a reg-name
// (RFC 3986 §3.2.2). No userinfo, path, query or fragment: a value carrying one would move the URL a Node adapter
// builds from it, or make that URL unbuildable.
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::[0-9]*)?$/;

/**
 * Whether a `Host` header value is an authority an `http` URL can carry: the grammar above, a non-empty host
 * (RFC 9110 §4.2.1) and what WHATWG URL parsing accepts (a port below 65536, a well-formed IPv6 literal).
 */
export function isHostAuthority(value: string): boolean {
  return AUTHORITY.test(value) && URL.canParse(`http://${value}`);
}

/** Methods the fetch standard forbids (`new Request` throws on them); Node's parser lets them through. */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Whether a web `Request` cannot carry this method, whatever its case. */
export function isFetchForbiddenMethod(method: string): boolean {
  return FETCH_FORBIDDEN_METHODS.has(method.toUpperCase());
}
