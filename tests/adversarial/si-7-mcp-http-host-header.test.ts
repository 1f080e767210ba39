// SI-7 (fail closed) on both MCP HTTP fronts: the v2 endpoint (createMCPHandler) and the v1 handler
// (createMCPHttpHandler), each behind its Node listener. With `allowedHosts` set, every Host that is malformed (userinfo,
// a path, a query, a bad port, an unclosed IPv6 literal, empty) must be refused exactly like a foreign host, on every
// path, the RFC 9728 document's included; without it, a malformed Host is a bad request. And no hostile header value
// (Host, Origin, Content-Type, Authorization, Accept, the MCP headers), nor the TRACE method, may make the front answer
// 500. The attacks are raw bytes over a loopback socket: fetch() will not send most of them.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { createMCPHttpHandler, type MCPHttpHandlerOptions } from "@orpc-agent/mcp/v1";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listen } from "../../packages/mcp/test/support/http.js";
import { callMessage, LEGACY_HEADERS, scopedApp, serveScoped } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

type RawAnswer = { status: number; headers: string; body: string };

/** One HTTP/1.1 request written byte for byte (Latin-1), read until the server closes. */
function rawExchange(port: number, head: string[], body = ""): Promise<RawAnswer> {
  const bytes = Buffer.from(`${[...head, `content-length: ${Buffer.byteLength(body, "latin1")}`, "connection: close"].join("\r\n")}\r\n\r\n${body}`, "latin1");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const headers = text.slice(0, split).toLowerCase();
      let rest = text.slice(split + 4);
      // Chunked answers: keep the payload only.
      if (headers.includes("transfer-encoding: chunked")) rest = rest.replace(/(^|\r\n)[0-9a-f]+\r\n/g, "$1").replace(/\r\n/g, "");
      resolve({ status, headers, body: rest });
    });
  });
}

const CALL = JSON.stringify(callMessage("cheap_ping", "legacy"));
const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
const call = (port: number, host: string | undefined, extra: Record<string, string> = {}, bearer = "tok-dana") =>
  rawExchange(port, ["POST /mcp HTTP/1.1", ...(host === undefined ? [] : [`host: ${host}`]), ...headerLines({ ...LEGACY_HEADERS, authorization: `Bearer ${bearer}`, ...extra })], CALL);

const MALFORMED_HOSTS = [
  "127.0.0.1@evil.example",
  "user:pw@127.0.0.1",
  "@127.0.0.1",
  "",
  "127.0.0.1:99999",
  "127.0.0.1:abc",
  "127.0.0.1:80:80",
  ":80",
  "[::1",
  "[::1]x",
  "a b",
  "127.0.0.1/evil",
  "127.0.0.1?x",
  "127.0.0.1#x",
  "127.0.0.1\\evil",
  "x/.well-known/oauth-protected-resource",
  "%zz",
  "\xe9",
];

/** A JSON-RPC error body's code, or undefined. */
const errorCode = (body: string): unknown => {
  try {
    return (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
  } catch {
    return undefined;
  }
};

describe("SI-7: v2 endpoint with allowedHosts refuses every malformed Host as a foreign one", () => {
  async function serve() {
    const app = scopedApp();
    const { port } = await serveScoped(app, { allowedHosts: ["127.0.0.1", "localhost"], authorizationServers: ["https://auth.example.com"] });
    return { app, port };
  }

  it.each(MALFORMED_HOSTS)("SI-7: the Host %j answers what a foreign host does, and runs nothing", async (host) => {
    const { app, port } = await serve();
    const foreign = await call(port, "evil.example");
    const malformed = await call(port, host);
    expect(foreign.status).toBe(403);
    expect({ status: malformed.status, code: errorCode(malformed.body), json: malformed.headers.includes("content-type: application/json") }).toEqual({
      status: 403,
      code: errorCode(foreign.body),
      json: true,
    });
    expect(app.runs).toEqual([]);
  });

  it("SI-7: a request with no Host at all (HTTP/1.0) is refused like a foreign host", async () => {
    const { app, port } = await serve();
    const answer = await rawExchange(port, ["POST /mcp HTTP/1.0", ...headerLines({ ...LEGACY_HEADERS, authorization: "Bearer tok-dana" })], CALL);
    expect(answer.status).toBe(403);
    expect(app.runs).toEqual([]);
  });

  it.each(["evil.example", "127.0.0.1@evil.example", "x/.well-known/oauth-protected-resource", ""])(
    "SI-7: the RFC 9728 document is refused to the Host %j as well",
    async (host) => {
      const { port } = await serve();
      const answer = await rawExchange(port, ["GET /.well-known/oauth-protected-resource/mcp HTTP/1.1", `host: ${host}`]);
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain("authorization_servers");
    },
  );

  it("SI-7: a Host look-alike cannot reach the document through a path it carries (GET /mcp)", async () => {
    const { port } = await serve();
    const answer = await rawExchange(port, ["GET /mcp HTTP/1.1", "host: x/.well-known/oauth-protected-resource", "authorization: Bearer tok-dana"]);
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain("authorization_servers");
  });

  it.each(["127.0.0.1", "localhost", "LOCALHOST", "127.0.0.1:1"])("SI-7: the allowed Host %j is served", async (host) => {
    const { app, port } = await serve();
    expect((await call(port, host)).status).toBe(200);
    expect(app.runs).toEqual(["cheap.ping"]);
  });

  it.each(MALFORMED_HOSTS.filter((host) => !/[^\x21-\x7e]/.test(host) || host === ""))(
    "SI-7: handed straight to fetch, the Host %j is refused with 403 too",
    async (host) => {
      const app = scopedApp();
      const { handler, url } = await serveScoped(app, { allowedHosts: ["127.0.0.1", "localhost"] });
      const response = await handler.fetch(new Request(url, { method: "POST", body: CALL, headers: { ...LEGACY_HEADERS, host, authorization: "Bearer tok-dana" } }));
      await response.text();
      expect(response.status).toBe(403);
      expect(app.runs).toEqual([]);
    },
  );
});

describe("SI-7: v2 endpoint without allowedHosts", () => {
  it.each(MALFORMED_HOSTS.filter((host) => host !== ""))("SI-7: the malformed Host %j is a bad request, never a server error, and runs nothing", async (host) => {
    const app = scopedApp();
    const { port } = await serveScoped(app);
    const answer = await call(port, host);
    expect(answer.status).toBe(400);
    expect(app.runs).toEqual([]);
  });

  it("SI-7: an ordinary foreign Host is still served (no allow-list, no Host check)", async () => {
    const app = scopedApp();
    const { port } = await serveScoped(app);
    expect((await call(port, "mcp.example.com:8443")).status).toBe(200);
    expect(app.runs).toEqual(["cheap.ping"]);
  });
});

describe("SI-7: v1 handler refuses every malformed Host as a foreign one", () => {
  const nowInSeconds = () => Math.floor(Date.now() / 1000);
  async function serveV1(allowedHosts: string[] | undefined) {
    const app = scopedApp();
    const options = {
      sessions: "stateless",
      verifyToken: (token: string) => (token === "tok-dana" ? { token, clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600 } : null),
      createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: { tenant: "t1" } }),
      ...(allowedHosts !== undefined && { allowedHosts }),
    } as MCPHttpHandlerOptions<{ tenant: string }>;
    const { url, port } = await listen(createMCPHttpHandler(app.runtime, options));
    allowedHosts?.push(url.host);
    return { app, port, host: url.host };
  }

  it.each(MALFORMED_HOSTS)("SI-7: the Host %j answers byte for byte what a foreign host does, and runs nothing", async (host) => {
    const { app, port } = await serveV1([]);
    const foreign = await call(port, "evil.example");
    const malformed = await call(port, host);
    expect(foreign.status).toBe(403);
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: foreign.status, body: foreign.body });
    expect(app.runs).toEqual([]);
  });

  it("SI-7: the allowed Host is served", async () => {
    const { app, port, host } = await serveV1([]);
    expect((await call(port, host)).status).toBe(200);
    expect(app.runs).toEqual(["cheap.ping"]);
  });

  it.each(MALFORMED_HOSTS.filter((host) => host !== ""))("SI-7: without allowedHosts the malformed Host %j is a bad request, never a server error", async (host) => {
    const { app, port } = await serveV1(undefined);
    const answer = await call(port, host);
    expect(answer.status).toBe(400);
    expect(app.runs).toEqual([]);
  });
});

// Header values a hostile client can put on the wire; each front must answer them without a server error.
const HOSTILE_HEADERS: [string, Record<string, string>][] = [
  ["an Origin that does not parse", { origin: "http://[::1" }],
  ["an Origin with Latin-1 bytes", { origin: "http://\xe9.example" }],
  ["an Origin with userinfo", { origin: "http://127.0.0.1@evil.example" }],
  ["an empty Origin", { origin: "" }],
  ["a Content-Type with a broken parameter", { "content-type": 'application/json; x="' }],
  ["a Content-Type with Latin-1 bytes", { "content-type": "application/json; charset=\xff" }],
  ["a Content-Type that is no media type", { "content-type": ";;;" }],
  ["an empty Content-Type", { "content-type": "" }],
  ["an Authorization with Latin-1 bytes", { authorization: "Bearer t\xe9k" }],
  ["an empty Authorization", { authorization: "" }],
  ["an Authorization scheme alone", { authorization: "Bearer" }],
  ["an Authorization with two tokens", { authorization: "Bearer a b" }],
  ["an Authorization of another scheme", { authorization: "Basic dXNlcjpwdw==" }],
  ["an empty MCP-Protocol-Version", { "mcp-protocol-version": "" }],
  ["an MCP-Protocol-Version with Latin-1 bytes", { "mcp-protocol-version": "2025-11-25\xe9" }],
  ["a modern MCP-Protocol-Version on a 2025-era body", { "mcp-protocol-version": "2026-07-28" }],
  ["an Accept with Latin-1 bytes", { accept: "\xff" }],
  ["an empty Accept", { accept: "" }],
  ["an Mcp-Method with Latin-1 bytes", { "mcp-method": "\xe9" }],
  ["an Mcp-Name broken sentinel", { "mcp-name": "=?base64?%%%?=" }],
  ["an Mcp-Session-Id with Latin-1 bytes", { "mcp-session-id": "\xe9" }],
  ["a Last-Event-ID with Latin-1 bytes", { "last-event-id": "\xe9" }],
  ["a traceparent with Latin-1 bytes", { traceparent: "00-\xe9-\xe9-01" }],
  ["a Content-Encoding the front does not decode", { "content-encoding": "br" }],
];

describe.each(["v2", "v1"] as const)("SI-7: hostile header values never make the %s front answer 500", (front) => {
  /** The front with an allow-list, and the Host it allows (the v1 handler compares whole Host values, port included). */
  async function serveFront() {
    const app = scopedApp();
    if (front === "v2") return { app, port: (await serveScoped(app, { allowedHosts: ["127.0.0.1"] })).port, host: "127.0.0.1" };
    const nowInSeconds = () => Math.floor(Date.now() / 1000);
    const allowedHosts: string[] = [];
    const { url, port } = await listen(
      createMCPHttpHandler(app.runtime, {
        allowedHosts,
        sessions: "stateless",
        verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600 } : null),
        createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: { tenant: "t1" } }),
      }),
    );
    allowedHosts.push(url.host);
    return { app, port, host: url.host };
  }

  it("SI-7: the allowed Host with ordinary headers is served (the baseline the attacks vary)", async () => {
    const { app, port, host } = await serveFront();
    expect((await call(port, host)).status).toBe(200);
    expect(app.runs).toEqual(["cheap.ping"]);
  });

  // TRACE is the one method fetch forbids that Node's parser hands to a request listener (TRACK: Node answers 400).
  it("SI-7: the method TRACE, which a web Request cannot carry, answers 405, not 500", async () => {
    const { app, port, host } = await serveFront();
    const answer = await rawExchange(port, ["TRACE /mcp HTTP/1.1", `host: ${host}`, "authorization: Bearer tok-dana"]);
    expect(answer.status).toBe(405);
    expect(answer.headers).toMatch(/\r\nallow: /);
    expect(app.runs).toEqual([]);
  });

  it.each(HOSTILE_HEADERS)("SI-7: %s answers below 500", async (_label, extra) => {
    const { port, host } = await serveFront();
    const answer = await call(port, host, extra);
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
  });
});
