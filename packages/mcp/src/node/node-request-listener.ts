import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { isFetchForbiddenMethod, isHostAuthority } from "../http/web-request-shape.js";
import { nodeRequestBody, type NodeRequestBody } from "./node-request-body.js";

/**
 * A Node request listener over a fetch-style handler, shared by both entries' `toNodeRequestListener`: builds a web
 * `Request` whose `signal` aborts when the client disconnects, then streams the response (SSE included) until it
 * ends or the client leaves. It reads the raw body itself, so it is mounted before any body parser. `allow` is the
 * endpoint's `Allow` list, sent with the `405` for a method a web `Request` cannot carry (TRACE, TRACK, CONNECT),
 * which never reaches the handler.
 */
export function createNodeRequestListener(
  fetchHandler: (request: Request) => Promise<Response>,
  { allow }: { allow: string },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const disconnected = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) disconnected.abort();
    };
    res.once("close", onClose);
    try {
      const built = toWebRequest(req, disconnected.signal);
      if (built === "method-not-allowed") {
        await writeWebResponse(res, methodNotAllowed(allow), disconnected.signal);
        return;
      }
      if (built === undefined) {
        res.writeHead(400).end();
        return;
      }
      const response = await fetchHandler(built.request);
      // A body left unread past the limit is never drained: the connection closes after this response.
      if (built.body?.abandoned() === true) res.shouldKeepAlive = false;
      await writeWebResponse(res, response, disconnected.signal);
    } catch {
      // Error text is never written: 500 when nothing was sent yet, else the response just ends.
      if (!res.headersSent) res.writeHead(500);
      res.end();
    } finally {
      res.off("close", onClose);
    }
  };
}

/**
 * `undefined` when the request line or headers cannot form a URL, web headers or a `Request` (answered 400);
 * `"method-not-allowed"` for a method the fetch standard forbids.
 */
function toWebRequest(req: IncomingMessage, signal: AbortSignal): { request: Request; body?: NodeRequestBody } | "method-not-allowed" | undefined {
  const method = req.method ?? "GET";
  if (isFetchForbiddenMethod(method)) return "method-not-allowed";
  const protocol = (req.socket as Partial<TLSSocket>).encrypted === true ? "https" : "http";
  const target = req.url ?? "/";
  // A Host that is no authority (userinfo, a path, a bad port) cannot name the URL: it would throw, or move the path.
  // The header itself is passed on as sent, for the handler's Host check to refuse like any other foreign host. Two
  // Host lines make a bad request (RFC 9112 §3.2), but Node keeps only the first: both go on, joined as a web request
  // joins a repeated header, so the check refuses the pair as the malformed value it is.
  const hosts = req.headersDistinct?.host;
  const host = hosts !== undefined && hosts.length > 1 ? hosts.join(", ") : req.headers.host;
  const authority = host !== undefined && isHostAuthority(host) ? host : "localhost";
  let url: URL;
  let headers: Headers;
  try {
    url = new URL(`${protocol}://${authority}${target.startsWith("/") ? target : `/${target}`}`);
    headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      // HTTP/2 pseudo-headers (":path", …) are not headers of the web request.
      if (value === undefined || name.startsWith(":")) continue;
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.set(name, value);
    }
    if (host !== undefined) headers.set("host", host);
    if (method === "GET" || method === "HEAD") return { request: new Request(url, { method, headers, signal }) };
  } catch {
    return undefined;
  }
  const body = nodeRequestBody(req);
  // duplex "half": a streamed request body (fetch spec).
  const init: RequestInit & { duplex: "half" } = { method, headers, signal, body: body.stream, duplex: "half" };
  try {
    return { request: new Request(url, init), body };
  } catch {
    return undefined;
  }
}

/** The SDK transports' own 405 body. */
function methodNotAllowed(allow: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }), {
    status: 405,
    headers: { allow, "content-type": "application/json" },
  });
}

async function writeWebResponse(res: ServerResponse, response: Response, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // Headers first, so an SSE client sees its stream open before the first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
  res.end();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
