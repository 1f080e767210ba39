/** A request body read under the limit, with the JSON-RPC request ids it carries (for disconnect cancellation). */
export type ReadBody = { bytes: Uint8Array; requestIds: (string | number)[] };

/**
 * Check 5 of docs/architecture/spec/adapters.md#adapters-3-9: a declared `Content-Length` over the limit is refused unread; otherwise reading
 * stops as soon as the limit is passed. `null` when the request has no body.
 */
export async function readBody(request: Request, maxBytes: number): Promise<ReadBody | "too-large" | null> {
  if (Number(request.headers.get("content-length")) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return "too-large";
  }
  if (request.body === null) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return "too-large";
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, requestIds: requestIdsOf(bytes) };
}

/** The same request with its body already read; the transport parses and answers malformed JSON itself. */
export function withBody(request: Request, bytes: Uint8Array): Request {
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes as Uint8Array<ArrayBuffer>, signal: request.signal });
}

function requestIdsOf(bytes: Uint8Array): (string | number)[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const m = message as { method?: unknown; id?: unknown } | null;
    if (typeof m === "object" && m !== null && typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number")) ids.push(m.id);
  }
  return ids;
}
