// docs/architecture/spec/adapters.md#adapters-3-9: Streamable HTTP with per-request bearer verification, checked in order before any MCP
// processing (Host, bearer, verifier, expiry, body size), stateful sessions and a stateless mode; the SDK's real
// Client over StreamableHTTPClientTransport on an ephemeral 127.0.0.1 port (docs/architecture/spec/adapters.md#adapters-3-10 item 14).
import { request as httpRequest } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { createMCPHttpHandler, type MCPHttpHandlerOptions, type MCPSession } from "../../../src/v1/index.js";
import { admin, createTestApp, dana, priya, type TestApp } from "../../support/app.js";
import { closeEverythingAfterEachTest } from "../../support/cleanup.js";
import { connectHttp, listen, mcpHeaders, rawRequest } from "../../support/http.js";

closeEverythingAfterEachTest();

const ACTORS: Record<string, typeof dana> = { "tok-dana": dana, "tok-priya": priya, "tok-admin": admin };
const METADATA = "https://api.example.com/.well-known/oauth-protected-resource/mcp";
const nowInSeconds = () => Math.floor(Date.now() / 1000);
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

type Setup = Partial<MCPHttpHandlerOptions<{ tenant: string }>>;

/** A handler over the test app: tokens `tok-<name>` verify to AuthInfo, createContext maps them to actors. */
async function serve(overrides: Setup = {}, app: TestApp = createTestApp()) {
  const sessions: MCPSession[] = [];
  const verified: string[] = [];
  const options: MCPHttpHandlerOptions<{ tenant: string }> = {
    verifyToken: (token) => {
      verified.push(token);
      return token in ACTORS ? { token, clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600 } : null;
    },
    createContext: (session) => {
      sessions.push(session);
      const actor = ACTORS[session.authInfo?.token ?? ""];
      return actor ? { actor, context: { tenant: "t1" } } : null;
    },
    ...overrides,
  };
  const { url, port } = await listen(createMCPHttpHandler(app.runtime, options));
  return { app, url, port, sessions, verified };
}

function header(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

describe("construction", () => {
  const { runtime } = createTestApp();
  const createContext = () => null;

  it("requires verifyToken unless allowUnauthenticated: true, and refuses both together", () => {
    expect(() => createMCPHttpHandler(runtime, { createContext })).toThrow(TypeError);
    expect(() => createMCPHttpHandler(runtime, { createContext })).toThrow(/verifyToken is required/);
    expect(() => createMCPHttpHandler(runtime, { createContext, allowUnauthenticated: true })).not.toThrow();
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken: () => null })).not.toThrow();
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken: () => null, allowUnauthenticated: true })).toThrow(/not both/);
    expect(() => createMCPHttpHandler(runtime, { createContext, allowUnauthenticated: false as never })).toThrow(TypeError);
  });

  it("refuses what createMCPServer refuses, and bad HTTP options", () => {
    const verifyToken = () => null;
    expect(() => createMCPHttpHandler(runtime, { verifyToken } as never)).toThrow(/createContext is required/);
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken, toolNaming: () => "same" })).toThrow(/collision/);
    for (const maxBodyBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1024"]) {
      expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken, maxBodyBytes: maxBodyBytes as never }), String(maxBodyBytes)).toThrow(/maxBodyBytes/);
    }
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken, sessions: "sticky" as never })).toThrow(/sessions/);
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken, allowedHosts: "localhost" as never })).toThrow(/allowedHosts/);
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken, resourceMetadataUrl: "/relative" })).toThrow(/resourceMetadataUrl/);
    expect(() => createMCPHttpHandler(runtime, { createContext, verifyToken, resourceMetadataUrl: 'https://x.example/"' })).toThrow(/resourceMetadataUrl/);
  });

  it("does no I/O and calls nothing at construction", () => {
    const verifyToken = vi.fn(() => null);
    const judge = vi.fn(() => null);
    createMCPHttpHandler(runtime, { createContext: judge, verifyToken });
    expect(verifyToken).not.toHaveBeenCalled();
    expect(judge).not.toHaveBeenCalled();
  });
});

describe("bearer authentication", () => {
  it("a valid token lists and calls; the token is verified on every request and createContext runs once per session", async () => {
    const { url, sessions, verified } = await serve();
    const { client, transport } = await connectHttp(url, "tok-dana");
    expect(transport.sessionId).toEqual(expect.any(String));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("orders_get");
    expect(names).not.toContain("admin_purge");
    const result = await client.callTool({ name: "notes_whoami", arguments: {} });
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "t1" } });
    await client.listTools();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ sessionId: transport.sessionId, authInfo: { token: "tok-dana", clientId: "c1", scopes: ["mcp"] } });
    // initialize, notifications/initialized, (GET stream), list, call, list: each request verified.
    expect(verified.length).toBeGreaterThanOrEqual(5);
    expect(new Set(verified)).toEqual(new Set(["tok-dana"]));
  });

  it("per-actor sessions list different tools", async () => {
    const { url } = await serve();
    const asDana = await connectHttp(url, "tok-dana");
    const asAdmin = await connectHttp(url, "tok-admin");
    expect((await asDana.client.listTools()).tools.map((tool) => tool.name)).not.toContain("admin_purge");
    expect((await asAdmin.client.listTools()).tools.map((tool) => tool.name)).toContain("admin_purge");
  });

  it("a missing token is 401 with WWW-Authenticate: Bearer and resource_metadata; createContext never runs", async () => {
    const { port, url, sessions } = await serve({ resourceMetadataUrl: METADATA });
    const response = await rawRequest(port, { headers: mcpHeaders(), body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(header(response.headers["www-authenticate"])).toBe(`Bearer resource_metadata="${METADATA}"`);
    await expect(connectHttp(url, undefined)).rejects.toThrow();
    expect(sessions).toEqual([]);
  });

  it("without resourceMetadataUrl the challenge is a bare Bearer", async () => {
    const { port } = await serve();
    const response = await rawRequest(port, { headers: mcpHeaders(), body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(header(response.headers["www-authenticate"])).toBe("Bearer");
  });

  it.each([["Basic dXNlcjpwYXNz"], ["Bearer"], ["Bearer "], ["tok-dana"], ["Bearer two tokens"]])(
    "an Authorization header %j that is not `Bearer <token>` is 401 without an error code, and is never verified",
    async (authorization) => {
      const { port, verified } = await serve();
      const response = await rawRequest(port, { headers: mcpHeaders({ authorization }), body: INITIALIZE });
      expect(response.status).toBe(401);
      expect(header(response.headers["www-authenticate"])).toBe("Bearer");
      expect(verified).toEqual([]);
    },
  );

  it.each([
    ["returns null", () => null],
    ["throws", () => {
      throw new Error("verifier exploded: kid=secret-kid-42");
    }],
    ["rejects", () => Promise.reject(new Error("verifier exploded: kid=secret-kid-42"))],
    ["returns a non-object", () => true as never],
  ])("a verifier that %s answers 401 invalid_token; no verifier text or token in headers or body", async (_, verifyToken) => {
    const { port, sessions } = await serve({ verifyToken: verifyToken as MCPHttpHandlerOptions["verifyToken"], resourceMetadataUrl: METADATA });
    const response = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer leaked-token-value" }), body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(header(response.headers["www-authenticate"])).toBe(`Bearer error="invalid_token", resource_metadata="${METADATA}"`);
    const everything = JSON.stringify(response.headers) + response.body;
    expect(everything).not.toMatch(/secret-kid-42|exploded|leaked-token-value/);
    expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: expect.any(String) }, id: null });
    expect(sessions).toEqual([]);
  });

  it("an expired token is 401 invalid_token", async () => {
    const { port } = await serve({ verifyToken: (token) => ({ token, clientId: "c1", scopes: [], expiresAt: nowInSeconds() - 1 }) });
    const response = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(header(response.headers["www-authenticate"])).toBe('Bearer error="invalid_token"');
  });

  it("verifyToken receives the token and the request", async () => {
    const seen: { token: string; url: string; method: string }[] = [];
    const { port } = await serve({
      verifyToken: (token, request) => {
        seen.push({ token, url: new URL(request.url).pathname, method: request.method });
        return null;
      },
    });
    await rawRequest(port, { headers: mcpHeaders({ authorization: "bearer abc.def-ghi_~+/==" }), body: INITIALIZE });
    expect(seen).toEqual([{ token: "abc.def-ghi_~+/==", url: "/mcp", method: "POST" }]);
  });

  it("a token swapped mid-session belongs to another principal: the session answers 404 as if unknown (SI-3)", async () => {
    const { url, sessions } = await serve();
    const session = await connectHttp(url, "tok-dana");
    const whoami = async () => (await session.client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent;
    expect(await whoami()).toMatchObject({ data: { actor: "u_dana" } });
    session.setToken("tok-priya");
    await expect(whoami()).rejects.toMatchObject({ code: 404 });
    expect(sessions.map((s) => s.authInfo?.token)).toEqual(["tok-dana"]);
  });

  it("a token that expires mid-session is refused at the HTTP layer on the next request", async () => {
    let expiresAt = nowInSeconds() + 3600;
    const { url } = await serve({ verifyToken: (token) => (token in ACTORS ? { token, clientId: "c1", scopes: [], expiresAt } : null) });
    const { client } = await connectHttp(url, "tok-dana");
    await client.listTools();
    expiresAt = nowInSeconds() - 1;
    await expect(client.listTools()).rejects.toMatchObject({ code: 401 });
  });

  it("allowUnauthenticated ignores Authorization: sessions carry no authInfo and createContext judges them", async () => {
    const app = createTestApp();
    const sessions: MCPSession[] = [];
    const { url } = await listen(
      createMCPHttpHandler(app.runtime, {
        allowUnauthenticated: true,
        createContext: (session) => {
          sessions.push(session);
          return { actor: { id: "local-dev", kind: "user" }, context: { tenant: "dev" } };
        },
      }),
    );
    const { client } = await connectHttp(url, "tok-admin");
    expect((await client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "local-dev" } });
    // Without a credential, createContext also judges each request, so a session belongs to whom it names (SI-3).
    expect(sessions.length).toBeGreaterThan(1);
    for (const session of sessions) expect(session.authInfo).toBeUndefined();
  });
});

describe("DNS-rebinding protection", () => {
  it("a Host header outside allowedHosts is 403 before authentication", async () => {
    const { port, verified } = await serve({ allowedHosts: ["mcp.example:443"] });
    const response = await rawRequest(port, { headers: mcpHeaders({ host: "evil.example", authorization: "Bearer tok-dana" }), body: INITIALIZE });
    expect(response.status).toBe(403);
    expect(response.body).not.toContain("evil.example");
    expect(verified).toEqual([]);
  });

  it("an allowed Host passes; a browser Origin on another host is 403", async () => {
    const { port } = await serve({ allowedHosts: ["mcp.example"] });
    const headers = (extra: Record<string, string>) => mcpHeaders({ host: "mcp.example", authorization: "Bearer tok-dana", ...extra });
    expect((await rawRequest(port, { headers: headers({}), body: INITIALIZE })).status).toBe(200);
    expect((await rawRequest(port, { headers: headers({ origin: "https://mcp.example" }), body: INITIALIZE })).status).toBe(200);
    expect((await rawRequest(port, { headers: headers({ origin: "https://attacker.example" }), body: INITIALIZE })).status).toBe(403);
    expect((await rawRequest(port, { headers: headers({ origin: "null" }), body: INITIALIZE })).status).toBe(403);
  });

  it("the SDK client is refused when its Host is not allowed, and served when it is", async () => {
    const allowedHosts: string[] = [];
    const { url } = await serve({ allowedHosts });
    await expect(connectHttp(url, "tok-dana")).rejects.toMatchObject({ code: 403 });
    // The port is known only once listening; the handler reads the same array on every request.
    allowedHosts.push(url.host);
    const { client } = await connectHttp(url, "tok-dana");
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe("body limits", () => {
  it("a declared Content-Length over maxBodyBytes is 413", async () => {
    const { port, sessions } = await serve({ maxBodyBytes: 1024 });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(2000) } });
    const response = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body });
    expect(response.status).toBe(413);
    expect(sessions).toEqual([]);
  });

  it("a streamed body without Content-Length stops being read at the limit: 413", async () => {
    const { port } = await serve({ maxBodyBytes: 64 * 1024 });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(1024 * 1024) } });
    const response = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body, chunked: true });
    expect(response.status).toBe(413);
  });

  it("the default limit is 1 MiB", async () => {
    const { port } = await serve();
    const at = (bytes: number) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(bytes) } });
    const over = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: at(1_048_576) });
    expect(over.status).toBe(413);
    const under = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: at(1_048_576 - 200) });
    expect(under.status).not.toBe(413);
  });

  it("authentication comes before the body: an unauthenticated oversized request is 401", async () => {
    const { port } = await serve({ maxBodyBytes: 10 });
    expect((await rawRequest(port, { headers: mcpHeaders(), body: INITIALIZE })).status).toBe(401);
  });
});

describe("malformed JSON-RPC", () => {
  it.each([
    ["invalid JSON", "{not json", -32700],
    ["not a JSON-RPC message", JSON.stringify({ hello: "world" }), -32700],
  ])("%s is the transport's 400, with no session created", async (_, body, code) => {
    const { port, sessions } = await serve();
    const response = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", error: { code } });
    expect(response.headers["mcp-session-id"]).toBeUndefined();
    expect(sessions).toEqual([]);
  });

  it("a request other than initialize without a session id is refused, and starts no session", async () => {
    const { port } = await serve();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const response = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: list });
    expect(response.status).toBe(400);
    expect(response.headers["mcp-session-id"]).toBeUndefined();
  });
});

describe("stateful sessions", () => {
  it("an unknown Mcp-Session-Id is 404", async () => {
    const { port } = await serve();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const response = await rawRequest(port, {
      headers: mcpHeaders({ authorization: "Bearer tok-dana", "mcp-session-id": "no-such-session" }),
      body: list,
    });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
  });

  it("DELETE ends the session: its id is 404 afterwards, and a new session judges identity again", async () => {
    const { url, port, sessions } = await serve();
    const first = await connectHttp(url, "tok-dana");
    await first.client.listTools();
    const sessionId = first.transport.sessionId!;
    await first.transport.terminateSession();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    const after = await rawRequest(port, {
      headers: mcpHeaders({ authorization: "Bearer tok-dana", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" }),
      body: list,
    });
    expect(after.status).toBe(404);
    const second = await connectHttp(url, "tok-dana");
    await second.client.listTools();
    expect(second.transport.sessionId).not.toBe(sessionId);
    expect(sessions.map((s) => s.sessionId)).toEqual([sessionId, second.transport.sessionId]);
  });

  it("sessions are isolated: one session's id does not carry another's identity", async () => {
    const { url } = await serve();
    const asDana = await connectHttp(url, "tok-dana");
    const asPriya = await connectHttp(url, "tok-priya");
    expect(asDana.transport.sessionId).not.toBe(asPriya.transport.sessionId);
    expect((await asPriya.client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "u_priya" } });
    expect((await asDana.client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "u_dana" } });
  });
});

describe('sessions: "stateless"', () => {
  it("serves without Mcp-Session-Id", async () => {
    const { url, port, sessions } = await serve({ sessions: "stateless" });
    const { client, transport } = await connectHttp(url, "tok-dana");
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("orders_get");
    expect((await client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "u_dana" } });
    const raw = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: INITIALIZE });
    expect(raw.status).toBe(200);
    expect(raw.headers["mcp-session-id"]).toBeUndefined();
    // A fresh server per request: identity is judged per request.
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    expect(sessions.every((s) => s.sessionId === undefined)).toBe(true);
  });
});

describe("cancellation over HTTP reaches the handler (adapters.md §1.6)", () => {
  it("a client abort (notifications/cancelled) aborts the running handler", async () => {
    const { url, app } = await serve();
    const { client } = await connectHttp(url, "tok-dana");
    const controller = new AbortController();
    const call = client.callTool({ name: "notes_slow", arguments: {} }, undefined, { signal: controller.signal });
    await app.interruptions.started("notes.slow");
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await app.interruptions.settled("notes.slow")).toEqual({ aborted: true });
    await expect.poll(async () => (await app.auditEvents()).filter((e) => e.type === "capability.cancelled").map((e) => e.data.code)).toEqual(["CANCELLED"]);
  });

  it.each(["stateful", "stateless"] as const)("a dropped connection (%s) aborts the running handler", async (mode) => {
    const { url, port, app } = await serve({ sessions: mode });
    const headers = mcpHeaders({ authorization: "Bearer tok-dana", "mcp-protocol-version": "2025-11-25" });
    if (mode === "stateful") {
      const { transport } = await connectHttp(url, "tok-dana");
      headers["mcp-session-id"] = transport.sessionId!;
    }
    const body = JSON.stringify({ jsonrpc: "2.0", id: 77, method: "tools/call", params: { name: "notes_slow", arguments: {} } });
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers: { ...headers, "content-length": String(body.length) }, agent: false });
    req.on("error", () => undefined); // the socket is destroyed on purpose
    req.end(body);
    await app.interruptions.started("notes.slow");
    req.destroy();
    expect(await app.interruptions.settled("notes.slow")).toEqual({ aborted: true });
    await expect.poll(async () => (await app.auditEvents()).filter((e) => e.type === "capability.cancelled").map((e) => e.data.code)).toEqual(["CANCELLED"]);
  });
});

