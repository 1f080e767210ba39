// Loopback HTTP plumbing: a node:http server on an ephemeral 127.0.0.1 port that closes itself, raw requests with a
// keep-alive agent, and the Streamable HTTP framing (SSE `data:` lines) of MCP responses.
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

export type Listening = { port: number; url: string; close(): Promise<void> };

/** Serves `listener` on 127.0.0.1 only; `close` drops every connection. */
export async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  // Longer than any pause between a client's batches, so a pooled socket is never closed under a request.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type RawResponse = { status: number; headers: IncomingHttpHeaders; body: string };

/** One pooled agent per test file: reused sockets, as a real client would. */
export function createAgent(maxSockets = 64): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

export function post(
  port: number,
  body: string | Buffer,
  headers: Record<string, string>,
  options: { agent?: Agent; path?: string; method?: string; chunked?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { ...headers };
    if (!options.chunked) all["content-length"] = String(Buffer.byteLength(body));
    let answered = false;
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers: all, agent: options.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          answered = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    // A server refusing a body it will not read may close while we still write: only a missing answer fails.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (!options.chunked) {
      req.end(body);
      return;
    }
    const bytes = Buffer.from(body);
    for (let offset = 0; offset < bytes.length; offset += 64 * 1024) req.write(bytes.subarray(offset, offset + 64 * 1024));
    req.end();
  });
}

/** The JSON-RPC messages of a Streamable HTTP answer: a JSON body, or the `data:` lines of an SSE stream. */
export function jsonRpcMessages(response: RawResponse): unknown[] {
  const type = String(response.headers["content-type"] ?? "");
  if (type.includes("text/event-stream")) {
    const out: unknown[] = [];
    for (const line of response.body.split("\n")) if (line.startsWith("data: ")) out.push(JSON.parse(line.slice(6)));
    return out;
  }
  if (response.body === "") return [];
  const parsed: unknown = JSON.parse(response.body);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** Median and tail of a latency sample, in milliseconds. */
export function percentiles(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
}
