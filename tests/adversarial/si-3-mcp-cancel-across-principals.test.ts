// SI-3 and SI-12 on every MCP path that maps a request id to a running call: a `notifications/cancelled` stops only
// a call made by the same principal (actor id and kind, and the OAuth client acting for it). The attacker knows the
// victim's JSON-RPC id (they are small integers) and shares what it can with the victim: no bearer at all (an
// `allowUnauthenticated` endpoint behind an authenticating proxy), the same bearer text, a `Bearer  x` header with
// two spaces, the same user through another OAuth client. The victim's call must finish untouched; its own cancel
// still stops it.
import { describe, expect, it } from "vitest";
import { createMCPHandler } from "@orpc-agent/mcp";
import { createMCPHttpHandler } from "@orpc-agent/mcp/v1";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listen } from "../../packages/mcp/test/support/http.js";
import { connectRawStdio } from "../../packages/mcp/test/stdio/raw-stdio.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { callMessage, cancelMessage, gatedApp, headersFor, LEGACY_HEADERS, messagesOf, MODERN_META, post, type Era } from "./support/mcp-v2.js";
import { behindProxy, proxyContext } from "./support/proxy-identity.js";

closeEverythingAfterEachTest();

const RELEASED = { status: "ok", data: { outcome: "released" } };
type App = ReturnType<typeof gatedApp>;

async function outcomeOf(response: Response): Promise<unknown> {
  const messages = (await messagesOf(response)) as { id?: unknown; result?: { structuredContent?: unknown } }[];
  return messages.find((message) => message.id !== undefined)?.result?.structuredContent;
}

/** A 2026-07-28 `notifications/cancelled` POST carries the envelope claim and its method header. */
function cancelFor(era: Era, requestId: unknown): { body: string; headers: Record<string, string> } {
  if (era === "legacy") return { body: JSON.stringify(cancelMessage(requestId)), headers: LEGACY_HEADERS };
  const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "stop", _meta: MODERN_META } };
  return { body: JSON.stringify(message), headers: { ...headersFor("jobs_wait", "modern"), "mcp-method": "notifications/cancelled" } };
}

function withoutName(headers: Record<string, string>): Record<string, string> {
  const { "mcp-name": _name, ...rest } = headers;
  return rest;
}

/** `allowUnauthenticated`: the identity is whatever `createContext` reads from the proxy's header. */
function serveBehindProxy(app: App) {
  return listenModern(() => {
    const handler = createMCPHandler(app.runtime, { allowUnauthenticated: true, createContext: proxyContext });
    return { fetch: behindProxy((request: Request) => handler.fetch(request)), close: () => handler.close() };
  });
}

/** One gateway token for everyone: the verifier reads the user from the gateway's header (`verifyToken` sees the request). */
function serveGateway(app: App) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token, request) => {
        const sub = request.headers.get("x-gateway-user");
        if (token !== "tok-gateway" || sub === null) return null;
        return { token, clientId: "gateway", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url, extra: { sub } };
      },
      createContext: ({ authInfo }) => {
        const sub = (authInfo?.extra as { sub?: unknown } | undefined)?.sub;
        return typeof sub === "string" ? { actor: { id: sub, kind: "user" }, context: {} } : null;
      },
    }),
  );
}

/** Two OAuth clients (agent-1, agent-2) acting for the same user: the same actor, another `via`. */
function serveTwoClients(app: App) {
  const clients: Record<string, string> = { "tok-agent-1": "agent-1", "tok-agent-2": "agent-2" };
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token) => (token in clients ? { token, clientId: clients[token]!, scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
      createContext: ({ authInfo }) => (authInfo === undefined ? null : { actor: { id: "u_dana", kind: "user" }, context: {} }),
    }),
  );
}

describe.each<Era>(["legacy", "modern"])("SI-3: HTTP (createMCPHandler), %s era: another principal's notifications/cancelled", (era) => {
  const callFrom = (url: URL, headers: Record<string, string>) => post(url, JSON.stringify(callMessage("jobs_wait", era, 1)), { ...headersFor("jobs_wait", era), ...headers });
  const cancelFrom = async (url: URL, headers: Record<string, string>) => {
    const cancel = cancelFor(era, 1);
    const answer = await post(url, cancel.body, { ...withoutName(cancel.headers), ...headers });
    await answer.text();
    return answer.status;
  };

  it.each([
    ["no Authorization header", {}],
    ["a `Bearer  x` header with two spaces", { authorization: "Bearer  x" }],
    ["the victim's own bearer text", { authorization: "Bearer shared" }],
  ])("SI-3: behind an authenticating proxy (allowUnauthenticated), another user's cancel with %s leaves the call running", async (_label, authorization) => {
    const app = gatedApp();
    const { url } = await serveBehindProxy(app);
    const victim = callFrom(url, { ...authorization, "x-forwarded-user": "u_victim" });
    await app.running;
    expect(await cancelFrom(url, { ...authorization, "x-forwarded-user": "u_attacker" })).toBeLessThan(300);
    app.release();
    expect(await outcomeOf(await victim)).toEqual(RELEASED);
  });

  it("SI-3: one gateway token for two users: the other user's cancel leaves the call running", async () => {
    const app = gatedApp();
    const { url } = await serveGateway(app);
    const victim = callFrom(url, { authorization: "Bearer tok-gateway", "x-gateway-user": "u_victim" });
    await app.running;
    expect(await cancelFrom(url, { authorization: "Bearer tok-gateway", "x-gateway-user": "u_attacker" })).toBeLessThan(300);
    app.release();
    expect(await outcomeOf(await victim)).toEqual(RELEASED);
  });

  it("SI-3: the same user through another OAuth client cannot cancel the call", async () => {
    const app = gatedApp();
    const { url } = await serveTwoClients(app);
    const victim = callFrom(url, { authorization: "Bearer tok-agent-1" });
    await app.running;
    expect(await cancelFrom(url, { authorization: "Bearer tok-agent-2" })).toBeLessThan(300);
    app.release();
    expect(await outcomeOf(await victim)).toEqual(RELEASED);
  });
});

describe("SI-12: HTTP 2025 era: the caller's own cancel still stops its call", () => {
  it("SI-12: behind the proxy, the same user's notifications/cancelled aborts the call", async () => {
    const app = gatedApp();
    const { url } = await serveBehindProxy(app);
    const victim = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), { ...LEGACY_HEADERS, "x-forwarded-user": "u_victim" });
    await app.running;
    expect((await post(url, JSON.stringify(cancelMessage(1)), { ...LEGACY_HEADERS, "x-forwarded-user": "u_victim" })).status).toBe(202);
    await app.abortSeen;
    app.release();
    expect(await victim.then(outcomeOf).catch(() => "no answer")).not.toEqual(RELEASED);
  });

  it("SI-12: with the gateway token, the same user's notifications/cancelled aborts the call", async () => {
    const app = gatedApp();
    const { url } = await serveGateway(app);
    const headers = { ...LEGACY_HEADERS, authorization: "Bearer tok-gateway", "x-gateway-user": "u_victim" };
    const victim = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), headers);
    await app.running;
    expect((await post(url, JSON.stringify(cancelMessage(1)), headers)).status).toBe(202);
    await app.abortSeen;
    app.release();
    expect(await victim.then(outcomeOf).catch(() => "no answer")).not.toEqual(RELEASED);
  });
});

/**
 * A stdio connection carries no credential: `createContext` answers for whoever is signed in to the app when each
 * message arrives (a desktop host that switches users). The cancel is judged like any other request.
 */
async function stdioConnection(app: App, era: Era) {
  const session = { user: "u_alice" };
  const raw = await connectRawStdio(app.runtime, { createContext: () => ({ actor: { id: session.user, kind: "user" }, context: {} }) }, era);
  return {
    session,
    call: (id: number) => raw.request(id, "tools/call", { name: "jobs_wait", arguments: {} }),
    /** A full round trip through the governed server (identity, listing), after anything sent before it. */
    roundTrip: (id: number) => raw.request(id, "tools/list"),
    cancel: (requestId: number) => raw.notify("notifications/cancelled", { requestId, reason: "stop" }),
  };
}

describe.each<Era>(["legacy", "modern"])("SI-3: stdio (serveMCPStdio), %s era", (era) => {
  it("SI-3: a notifications/cancelled sent while another user is signed in leaves the first user's call running", async () => {
    const app = gatedApp();
    const connection = await stdioConnection(app, era);
    const victim = connection.call(1);
    await app.running;
    let aborted = false;
    void app.abortSeen.then(() => (aborted = true));
    connection.session.user = "u_bob";
    await connection.cancel(1);
    await connection.roundTrip(2);
    // A cancelled call is never answered on stdio, so its abort is read here rather than awaited below.
    expect(aborted).toBe(false);
    app.release();
    expect(((await victim) as { result?: { structuredContent?: unknown } }).result?.structuredContent).toEqual(RELEASED);
  });

  it("SI-12: the signed-in user's own notifications/cancelled aborts its call", async () => {
    const app = gatedApp();
    const connection = await stdioConnection(app, era);
    void connection.call(1);
    await app.running;
    await connection.cancel(1);
    await app.abortSeen;
    app.release();
  });
});

/** v1 stateful sessions under `allowUnauthenticated`, behind the proxy. */
async function serveV1BehindProxy(app: App) {
  const handler = createMCPHttpHandler(app.runtime, { allowUnauthenticated: true, createContext: proxyContext });
  return listen(behindProxy(handler));
}

const V1_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

async function openV1Session(url: URL, user: string): Promise<string> {
  const opened = await post(url, JSON.stringify(INITIALIZE), { ...V1_HEADERS, "x-forwarded-user": user });
  await opened.text();
  const sessionId = opened.headers.get("mcp-session-id")!;
  const initialized = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), { ...V1_HEADERS, "x-forwarded-user": user, "mcp-session-id": sessionId });
  await initialized.text();
  return sessionId;
}

describe("SI-3: v1 stateful sessions (createMCPHttpHandler) behind an authenticating proxy", () => {
  it("SI-3: another user's notifications/cancelled on the victim's session answers like an unknown session and leaves the call running", async () => {
    const app = gatedApp();
    const { url } = await serveV1BehindProxy(app);
    const sessionId = await openV1Session(url, "u_victim");
    const victim = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), { ...V1_HEADERS, "x-forwarded-user": "u_victim", "mcp-session-id": sessionId });
    await app.running;
    const cancel = JSON.stringify(cancelMessage(1));
    const attack = await post(url, cancel, { ...V1_HEADERS, "x-forwarded-user": "u_attacker", "mcp-session-id": sessionId });
    const unknown = await post(url, cancel, { ...V1_HEADERS, "x-forwarded-user": "u_attacker", "mcp-session-id": "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9" });
    expect({ status: attack.status, body: await attack.text() }).toEqual({ status: unknown.status, body: await unknown.text() });
    app.release();
    expect(await outcomeOf(await victim)).toEqual(RELEASED);
  });

  it("SI-12: the victim's own notifications/cancelled on its session aborts the call", async () => {
    const app = gatedApp();
    const { url } = await serveV1BehindProxy(app);
    const sessionId = await openV1Session(url, "u_victim");
    const victim = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), { ...V1_HEADERS, "x-forwarded-user": "u_victim", "mcp-session-id": sessionId });
    await app.running;
    expect((await post(url, JSON.stringify(cancelMessage(1)), { ...V1_HEADERS, "x-forwarded-user": "u_victim", "mcp-session-id": sessionId })).status).toBe(202);
    await app.abortSeen;
    app.release();
    // The SDK answers nothing for a cancelled request: its open stream is dropped with the server after the test.
    void victim.then((response) => response.body?.cancel()).catch(() => undefined);
  });
});
