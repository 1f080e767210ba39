// SI-3 over MCP Streamable HTTP: a session belongs to the principal that opened it (issue 22, finding 3). Another
// principal's valid token on a victim's Mcp-Session-Id gets the byte-identical answer of an unknown session, on
// POST, GET, DELETE and notifications alike. Real SDK clients and raw HTTP over loopback.
import { describe, expect, it } from "vitest";
import { createMCPHttpHandler, type MCPHttpHandlerOptions } from "@orpc-agent/mcp/v1";
import { createTestApp, dana, priya, type TestApp } from "../../packages/mcp/test/support/app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectHttp, listen, mcpHeaders, rawRequest, type RawResponse } from "../../packages/mcp/test/support/http.js";

closeEverythingAfterEachTest();

const ACTORS: Record<string, typeof dana> = { "tok-dana": dana, "tok-priya": priya };
const UNKNOWN_SESSION = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

type Setup = Partial<MCPHttpHandlerOptions<{ tenant: string }>>;

async function serve(overrides: Setup = {}, app: TestApp = createTestApp()) {
  const contexts: unknown[] = [];
  const options: MCPHttpHandlerOptions<{ tenant: string }> = {
    verifyToken: (token) => (token in ACTORS ? { token, clientId: "c1", scopes: ["mcp"], expiresAt: inAnHour() } : null),
    createContext: (session) => {
      contexts.push(session.authInfo);
      const actor = ACTORS[session.authInfo?.token ?? ""];
      return actor ? { actor, context: { tenant: "t1" } } : null;
    },
    ...overrides,
  };
  const { url, port } = await listen(createMCPHttpHandler(app.runtime, options));
  return { app, url, port, contexts };
}

/** What a client can observe of an answer, minus the per-response Date and connection headers. */
function observable(response: RawResponse) {
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...headers } = response.headers;
  return { status: response.status, headers, body: response.body };
}

const post = (port: number, token: string, sessionId: string, message: object) =>
  rawRequest(port, { headers: mcpHeaders({ authorization: `Bearer ${token}`, "mcp-session-id": sessionId }), body: JSON.stringify(message) });
const bare = (port: number, method: "GET" | "DELETE", token: string, sessionId: string) =>
  rawRequest(port, { method, headers: { accept: "text/event-stream", authorization: `Bearer ${token}`, "mcp-session-id": sessionId } });

describe("an MCP session is bound to the principal that opened it (SI-3)", () => {
  it("SI-3: another principal's POST on the victim's session is answered exactly as an unknown session", async () => {
    const { port, url } = await serve();
    const victim = await connectHttp(url, "tok-dana");
    const sessionId = victim.transport.sessionId!;
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "notes_whoami", arguments: {} } };
    const unknown = observable(await post(port, "tok-priya", UNKNOWN_SESSION, call));
    expect(unknown.status).toBe(404);
    expect(observable(await post(port, "tok-priya", sessionId, call))).toEqual(unknown);
    expect(observable(await post(port, "tok-priya", sessionId, { jsonrpc: "2.0", id: 8, method: "tools/list" }))).toEqual(
      observable(await post(port, "tok-priya", UNKNOWN_SESSION, { jsonrpc: "2.0", id: 8, method: "tools/list" })),
    );
    // The victim's session is untouched.
    expect((await victim.client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "u_dana" } });
  });

  it("SI-3: reusing the victim's in-flight JSON-RPC id does not hand the attacker the victim's result", async () => {
    const { app, port, url } = await serve();
    const victim = await connectHttp(url, "tok-dana");
    const sessionId = victim.transport.sessionId!;
    const controller = new AbortController();
    const running = victim.client.callTool({ name: "notes_slow", arguments: {} }, undefined, { signal: controller.signal }).catch(() => "aborted");
    await app.interruptions.started("notes.slow");
    // The SDK client numbers its requests from 0: initialize was 0, this call is 1.
    const hijack = await post(port, "tok-priya", sessionId, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "notes_whoami", arguments: {} } });
    expect(observable(hijack)).toEqual(
      observable(await post(port, "tok-priya", UNKNOWN_SESSION, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "notes_whoami", arguments: {} } })),
    );
    expect(hijack.body).not.toContain("u_dana");
    controller.abort();
    await running;
  });

  it("SI-3: another principal's notifications/cancelled is refused and the victim's call keeps running", async () => {
    const { app, port, url } = await serve();
    const victim = await connectHttp(url, "tok-dana");
    const sessionId = victim.transport.sessionId!;
    const controller = new AbortController();
    const running = victim.client.callTool({ name: "notes_slow", arguments: {} }, undefined, { signal: controller.signal }).catch(() => "aborted");
    await app.interruptions.started("notes.slow");
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "hijack" } };
    expect(observable(await post(port, "tok-priya", sessionId, cancel))).toEqual(observable(await post(port, "tok-priya", UNKNOWN_SESSION, cancel)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await app.auditEvents()).filter((event) => event.type === "capability.cancelled")).toEqual([]);
    // Only the victim's own cancellation ends it.
    controller.abort();
    await running;
    await expect
      .poll(async () => (await app.auditEvents()).filter((event) => event.type === "capability.cancelled").map((event) => event.actor.id))
      .toEqual(["u_dana"]);
  });

  it("SI-3: another principal cannot take the victim's GET stream, nor DELETE the session", async () => {
    const { port, url } = await serve();
    // A raw victim that has not opened its GET stream yet (the SDK client opens one at once).
    const initialized = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: INITIALIZE });
    const sessionId = String(initialized.headers["mcp-session-id"]);
    const unknownGet = observable(await bare(port, "GET", "tok-priya", UNKNOWN_SESSION));
    expect(unknownGet.status).toBe(404);
    expect(observable(await bare(port, "GET", "tok-priya", sessionId))).toEqual(unknownGet);
    const unknownDelete = observable(await bare(port, "DELETE", "tok-priya", UNKNOWN_SESSION));
    expect(unknownDelete.status).toBe(404);
    expect(observable(await bare(port, "DELETE", "tok-priya", sessionId))).toEqual(unknownDelete);
    // The session survived, and its GET stream is still the victim's to open.
    expect((await post(port, "tok-dana", sessionId, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(200);
    const stream = await fetch(url, { headers: { accept: "text/event-stream", authorization: "Bearer tok-dana", "mcp-session-id": sessionId } });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });

  it("SI-3: a second principal racing the first on one session never gets through, and the first is never disturbed", async () => {
    const { port, url } = await serve();
    const victim = await connectHttp(url, "tok-dana");
    const sessionId = victim.transport.sessionId!;
    const calls = Array.from({ length: 20 }, (_, index) => [
      victim.client.callTool({ name: "notes_whoami", arguments: {} }).then((result) => result.structuredContent),
      post(port, "tok-priya", sessionId, { jsonrpc: "2.0", id: 1000 + index, method: "tools/call", params: { name: "notes_whoami", arguments: {} } }),
    ]);
    const settled = await Promise.all(calls.flat());
    for (const [index, outcome] of settled.entries()) {
      if (index % 2 === 0) expect(outcome).toMatchObject({ data: { actor: "u_dana" } });
      else expect((outcome as RawResponse).status).toBe(404);
    }
  });

  it("SI-3: a verifier whose AuthInfo has no token is refused (500, typed message), never run as another session's actor", async () => {
    const { port, url, contexts } = await serve({
      // A verifier bug: the AuthInfo names the client but drops the token.
      verifyToken: (token) => (token in ACTORS ? ({ clientId: "c1", scopes: ["mcp"], extra: { sub: token } } as never) : null),
      createContext: () => ({ actor: dana, context: { tenant: "t1" } }),
    });
    const initialize = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-priya" }), body: INITIALIZE });
    expect(initialize.status).toBe(500);
    expect(JSON.parse(initialize.body)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: expect.stringMatching(/verifyToken returned an AuthInfo without its token/) }, id: null });
    expect(initialize.headers["mcp-session-id"]).toBeUndefined();
    expect(contexts).toEqual([]);
    await expect(connectHttp(url, "tok-dana")).rejects.toThrow();
  });
});

describe("probing a session id without one's own valid credential (SI-3)", () => {
  it("SI-3: without a token, or with an invalid one, a known session and an unknown one get the same 401", async () => {
    const { port } = await serve();
    const initialized = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: INITIALIZE });
    const sessionId = String(initialized.headers["mcp-session-id"]);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    for (const authorization of [undefined, "Bearer tok-forged"]) {
      const headers = (id: string) => mcpHeaders({ "mcp-session-id": id, ...(authorization ? { authorization } : {}) });
      const known = observable(await rawRequest(port, { headers: headers(sessionId), body: list }));
      expect(known.status).toBe(401);
      expect(known).toEqual(observable(await rawRequest(port, { headers: headers(UNKNOWN_SESSION), body: list })));
    }
  });

  it("SI-3: a sessionPrincipal that names nobody or throws refuses the request and opens no session", async () => {
    for (const sessionPrincipal of [() => "", () => undefined as never, () => { throw new Error("directory down"); }]) {
      const { port, contexts } = await serve({ sessionPrincipal });
      const refused = await rawRequest(port, { headers: mcpHeaders({ authorization: "Bearer tok-dana" }), body: INITIALIZE });
      expect(refused.status).toBe(500);
      expect(refused.headers["mcp-session-id"]).toBeUndefined();
      expect(refused.body).not.toContain("directory down");
      expect(contexts).toEqual([]);
    }
  });
});

describe("session lifetime: idle timeout and a per-principal cap (SI-3)", () => {
  it("SI-3: a session its owner DELETEs frees its place under the cap", async () => {
    const { url } = await serve({ maxSessionsPerPrincipal: 2 });
    const first = await connectHttp(url, "tok-dana");
    const second = await connectHttp(url, "tok-dana");
    await first.transport.terminateSession();
    const third = await connectHttp(url, "tok-dana");
    for (const kept of [second, third]) expect((await kept.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("SI-3: an idle session expires and answers 404; the client re-initializes", async () => {
    const { url } = await serve({ sessionIdleTimeoutMs: 1_000 });
    const first = await connectHttp(url, "tok-dana");
    await first.client.listTools();
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await expect(first.client.listTools()).rejects.toMatchObject({ code: 404 });
    const again = await connectHttp(url, "tok-dana");
    expect((await again.client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "u_dana" } });
  });

  it("SI-3: a session with a call in flight is not idle", async () => {
    const { app, url } = await serve({ sessionIdleTimeoutMs: 1_000 });
    const session = await connectHttp(url, "tok-dana");
    const controller = new AbortController();
    const running = session.client.callTool({ name: "notes_slow", arguments: {} }, undefined, { signal: controller.signal }).catch(() => "aborted");
    await app.interruptions.started("notes.slow");
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    controller.abort();
    await running;
  });

  it("SI-3: past maxSessionsPerPrincipal the least recently used session of that principal is closed; others are untouched", async () => {
    const { url } = await serve({ maxSessionsPerPrincipal: 2 });
    const other = await connectHttp(url, "tok-priya");
    const oldest = await connectHttp(url, "tok-dana");
    const middle = await connectHttp(url, "tok-dana");
    await oldest.client.listTools(); // now `middle` is the least recently used
    const newest = await connectHttp(url, "tok-dana");
    await expect(middle.client.listTools()).rejects.toMatchObject({ code: 404 });
    for (const kept of [oldest, newest, other]) expect((await kept.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("refuses invalid lifetime options at construction", () => {
    const { runtime } = createTestApp();
    const base = { verifyToken: () => null, createContext: () => null };
    for (const bad of [0, -1, 1.5, Number.NaN, "60000"]) {
      expect(() => createMCPHttpHandler(runtime, { ...base, sessionIdleTimeoutMs: bad as never })).toThrow(/sessionIdleTimeoutMs/);
      expect(() => createMCPHttpHandler(runtime, { ...base, maxSessionsPerPrincipal: bad as never })).toThrow(/maxSessionsPerPrincipal/);
    }
    expect(() => createMCPHttpHandler(runtime, { ...base, sessionPrincipal: "sub" as never })).toThrow(/sessionPrincipal/);
  });
});

describe("sessionPrincipal: a refreshed token of the same user keeps the session (SI-3)", () => {
  it("SI-3: with sessionPrincipal a refreshed token keeps the session, another user's token still gets 404", async () => {
    const tokens: Record<string, { sub: string; actor: typeof dana }> = {
      "tok-dana-1": { sub: "dana", actor: dana },
      "tok-dana-2": { sub: "dana", actor: dana },
      "tok-priya": { sub: "priya", actor: priya },
    };
    const { port, url } = await serve({
      verifyToken: (token) => (token in tokens ? { token, clientId: "c1", scopes: [], expiresAt: inAnHour(), extra: { sub: tokens[token]!.sub } } : null),
      createContext: (session) => {
        const entry = tokens[session.authInfo?.token ?? ""];
        return entry ? { actor: entry.actor, context: { tenant: "t1" } } : null;
      },
      sessionPrincipal: (authInfo) => `${authInfo.clientId}:${String(authInfo.extra?.sub)}`,
    });
    const session = await connectHttp(url, "tok-dana-1");
    session.setToken("tok-dana-2");
    expect((await session.client.callTool({ name: "notes_whoami", arguments: {} })).structuredContent).toMatchObject({ data: { actor: "u_dana" } });
    const attack = await post(port, "tok-priya", session.transport.sessionId!, { jsonrpc: "2.0", id: 9, method: "tools/list" });
    expect(attack.status).toBe(404);
  });
});
