import { request as httpRequest, createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toNodeRequestListener } from "../../src/v1/index.js";
import { closeAfterTest } from "./cleanup.js";

export type Listening = { url: URL; port: number };

/** Mounts a fetch-style handler with `toNodeRequestListener` on an ephemeral 127.0.0.1 port, closed after the test. */
export async function listen(handler: (request: Request) => Promise<Response>): Promise<Listening> {
  const server = createServer(toNodeRequestListener(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  closeAfterTest(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), port };
}

export type HttpSession = { client: Client; transport: StreamableHTTPClientTransport; setToken(token: string | undefined): void };

/** The SDK's real `Client` over `StreamableHTTPClientTransport`, sending `Authorization: Bearer <token>` when set. */
export async function connectHttp(url: URL, token: string | undefined): Promise<HttpSession> {
  let current = token;
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      if (current !== undefined) headers.set("authorization", `Bearer ${current}`);
      return fetch(input, { ...init, headers });
    },
  });
  const client = new Client({ name: "mcp-adapter-http-test", version: "1.0.0" });
  await client.connect(transport);
  closeAfterTest(() => client.close());
  return { client, transport, setToken: (next) => void (current = next) };
}

export type RawResponse = { status: number; headers: IncomingHttpHeaders; body: string };

export type RawRequest = {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sends the body in pieces without a Content-Length. */
  chunked?: boolean;
};

/** A hand-built HTTP request (any Host header, any body), for what the SDK client never sends. */
export function rawRequest(port: number, options: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && !options.chunked) headers["content-length"] = String(Buffer.byteLength(options.body));
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers, agent: false },
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
    let answered = false;
    // A server refusing a body it will not read may close while the client still writes: only a missing answer fails.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (options.body === undefined) {
      req.end();
      return;
    }
    if (!options.chunked) {
      req.end(options.body);
      return;
    }
    const body = Buffer.from(options.body);
    const piece = 64 * 1024;
    for (let offset = 0; offset < body.length; offset += piece) req.write(body.subarray(offset, offset + piece));
    req.end();
  });
}

/** JSON-RPC over a raw POST, with the headers the Streamable HTTP transport requires. */
export function mcpHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra };
}
