// oRPC 1's RPCLink hands its `fetch` option a Request and `{ redirect: "manual" }`; oRPC 2's hands it a URL string
// and a full RequestInit. Normalized to the 1.x form, so a user's `fetch` sees the same call on either major.

/** The request an RPCLink is about to send, as a Request, and the init to send it with. */
export function linkRequest(request: Request | string, init: RequestInit | undefined): { request: Request; init: RequestInit } {
  if (request instanceof Request) return { request, init: init ?? {} };
  return { request: new Request(request, init), init: { redirect: init?.redirect ?? "manual" } };
}
