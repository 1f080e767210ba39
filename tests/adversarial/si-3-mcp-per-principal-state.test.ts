// SI-3 and SI-8 on what the MCP adapter remembers between requests: the 2025-era client capabilities declared in
// `initialize`, the approvals a 2025-11-25 retry resumes, the 2026-07-28 `requestState`, the approvals a stdio
// connection waits on, and the v1 sessions. Each belongs to the principal that made it (actor id and kind, and the
// OAuth client acting for it). A hostile second principal shares with the first what it can: the endpoint, the
// bearer text (one gateway token, or none at all behind an authenticating proxy), the user through another OAuth
// client. It must never be served from the first principal's state, nor disturb it.
import { describe, expect, it } from "vitest";
import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { createMCPHttpHandler } from "@orpc-agent/mcp/v1";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { createTestApp } from "../../packages/mcp/test/support/app.js";
import { listen } from "../../packages/mcp/test/support/http.js";
import { approvalIdOf, approvalUrl, approve, createApprovalsApp, STATE_KEYS, type ApprovalsApp } from "../../packages/mcp/test/approvals/approvals-app.js";
import { connectRawStdio } from "../../packages/mcp/test/stdio/raw-stdio.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { LEGACY_HEADERS, messagesOf, MODERN_META, post } from "./support/mcp-v2.js";
import { behindProxy, proxyContext } from "./support/proxy-identity.js";

closeEverythingAfterEachTest();

const ARGS = { orderId: "o1", amount: 5 };
const URL_CAPABILITIES = { elicitation: { url: {} } };
const ELICITATION = { approvals: { url: (record: { id: string }) => approvalUrl(record.id) }, urlElicitation: { keys: STATE_KEYS } };

type Headers = Record<string, string>;
/** How a 2025-11-25 `tools/call` of the gated refund was answered: `-32042` (URL elicitation) or the envelope. */
type Asked = { code?: number; status?: string; approvalId?: string };

async function initialize(url: URL, headers: Headers, capabilities: object): Promise<number> {
  const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } } };
  const response = await post(url, JSON.stringify(body), { ...LEGACY_HEADERS, ...headers });
  await response.text();
  return response.status;
}

function askedOf(message: unknown): Asked {
  const m = message as { error?: { code: number; data?: { elicitations?: { elicitationId: string }[] } }; result?: { structuredContent?: { status?: string; approvalId?: string } } };
  if (m.error !== undefined) return { code: m.error.code, approvalId: m.error.data?.elicitations?.[0]?.elicitationId };
  return { status: m.result?.structuredContent?.status, approvalId: m.result?.structuredContent?.approvalId };
}

async function refund(url: URL, headers: Headers): Promise<Asked> {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "payments_refund", arguments: ARGS } };
  return askedOf((await messagesOf(await post(url, JSON.stringify(body), { ...LEGACY_HEADERS, ...headers })))[0]);
}

const URL_ELICITED = { code: -32042, approvalId: expect.any(String) };
const ENVELOPE = { status: "approval-required", approvalId: expect.any(String) };

function serveWith(app: ApprovalsApp, build: (url: URL) => MCPHandlerOptions) {
  return listenModern((url) => createMCPHandler(app.runtime, { ...build(url), ...ELICITATION } as MCPHandlerOptions));
}

/** `allowUnauthenticated` behind an authenticating proxy: `createContext` reads the proxy's user. */
function serveBehindProxy(app: ApprovalsApp) {
  return listenModern(() => {
    const handler = createMCPHandler(app.runtime, { allowUnauthenticated: true, createContext: proxyContext, ...ELICITATION });
    return { fetch: behindProxy((request: Request) => handler.fetch(request)), close: () => handler.close() };
  });
}

/** One gateway token; the verifier reads the user from the gateway's header. */
const gateway = (url: URL): MCPHandlerOptions => ({
  resource: url,
  verifyToken: (token, request) => {
    const sub = request.headers.get("x-gateway-user");
    return token === "tok-gateway" && sub !== null ? { token, clientId: "gateway", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url, extra: { sub } } : null;
  },
  createContext: ({ authInfo }) => {
    const sub = (authInfo?.extra as { sub?: unknown } | undefined)?.sub;
    return typeof sub === "string" ? { actor: { id: sub, kind: "user" }, context: {} } : null;
  },
});

/** A verifier that names the user in `extra.sub` and, like many JWT verifiers, does not echo the token back. */
const tokenless = (url: URL): MCPHandlerOptions => ({
  resource: url,
  verifyToken: (token) => {
    const sub = { "tok-alice": "u_alice", "tok-bob": "u_bob" }[token];
    return sub === undefined ? null : ({ clientId: "c1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url, extra: { sub } } as never);
  },
  createContext: gateway(url).createContext,
});

/** Two OAuth clients acting for the same user. */
const twoClients = (url: URL): MCPHandlerOptions => ({
  resource: url,
  verifyToken: (token) => {
    const clientId = { "tok-agent-1": "agent-1", "tok-agent-2": "agent-2" }[token];
    return clientId === undefined ? null : { token, clientId, scopes: [], expiresAt: nowInSeconds() + 3600, resource: url };
  },
  createContext: ({ authInfo }) => (authInfo === undefined ? null : { actor: { id: "u_dana", kind: "user" }, context: {} }),
});

const ALICE = { proxy: { "x-forwarded-user": "u_alice" }, gateway: { authorization: "Bearer tok-gateway", "x-gateway-user": "u_alice" } };
const BOB = { proxy: { "x-forwarded-user": "u_bob" }, gateway: { authorization: "Bearer tok-gateway", "x-gateway-user": "u_bob" } };

describe("SI-3: 2025-era client capabilities are remembered for the principal that declared them", () => {
  it("SI-3: one gateway token for two users: the user who did not declare URL elicitation gets the envelope, not -32042", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWith(app, gateway);
    await initialize(url, ALICE.gateway, URL_CAPABILITIES);
    await initialize(url, BOB.gateway, {});
    expect(await refund(url, BOB.gateway)).toEqual(ENVELOPE);
    expect(await refund(url, ALICE.gateway)).toEqual(URL_ELICITED);
  });

  it("SI-3: behind an authenticating proxy (no bearer), each user's declaration is their own", async () => {
    const app = createApprovalsApp();
    const { url } = await serveBehindProxy(app);
    await initialize(url, ALICE.proxy, URL_CAPABILITIES);
    await initialize(url, BOB.proxy, {});
    expect(await refund(url, BOB.proxy)).toEqual(ENVELOPE);
    expect(await refund(url, ALICE.proxy)).toEqual(URL_ELICITED);
  });

  it("SI-3: a verifier whose AuthInfo carries no token: initialize is served and each user's declaration is their own", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWith(app, tokenless);
    expect(await initialize(url, { authorization: "Bearer tok-alice" }, URL_CAPABILITIES)).toBe(200);
    expect(await initialize(url, { authorization: "Bearer tok-bob" }, {})).toBe(200);
    expect(await refund(url, { authorization: "Bearer tok-bob" })).toEqual(ENVELOPE);
    expect(await refund(url, { authorization: "Bearer tok-alice" })).toEqual(URL_ELICITED);
  });

  it("SI-3: the same user through another OAuth client does not inherit the first client's declaration", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWith(app, twoClients);
    await initialize(url, { authorization: "Bearer tok-agent-1" }, URL_CAPABILITIES);
    await initialize(url, { authorization: "Bearer tok-agent-2" }, {});
    expect(await refund(url, { authorization: "Bearer tok-agent-2" })).toEqual(ENVELOPE);
    expect(await refund(url, { authorization: "Bearer tok-agent-1" })).toEqual(URL_ELICITED);
  });
});

describe("SI-8: a 2025-11-25 retry resumes only its own principal's approval", () => {
  it("SI-8: the same user through another OAuth client, with the identical call, gets its own approval; the approved one stays unused", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWith(app, twoClients);
    const [first, second] = [{ authorization: "Bearer tok-agent-1" }, { authorization: "Bearer tok-agent-2" }];
    await initialize(url, first, URL_CAPABILITIES);
    await initialize(url, second, URL_CAPABILITIES);
    const asked = await refund(url, first);
    await approve(app, asked.approvalId!);
    const other = await refund(url, second);
    expect(other).toEqual(URL_ELICITED);
    expect(other.approvalId).not.toBe(asked.approvalId);
    expect(app.executions).toEqual([]);
    expect(await refund(url, first)).toEqual({ status: "ok", approvalId: undefined });
    expect(app.executions).toEqual([ARGS]);
  });

  it.each([
    ["behind an authenticating proxy", "proxy"],
    ["with one gateway token", "gateway"],
  ] as const)("SI-8: %s, another user's identical call gets its own approval, never the approved one", async (_label, mode) => {
    const app = createApprovalsApp();
    const { url } = mode === "proxy" ? await serveBehindProxy(app) : await serveWith(app, gateway);
    await initialize(url, ALICE[mode], URL_CAPABILITIES);
    await initialize(url, BOB[mode], URL_CAPABILITIES);
    const asked = await refund(url, ALICE[mode]);
    await approve(app, asked.approvalId!);
    const other = await refund(url, BOB[mode]);
    expect(other.approvalId).toEqual(expect.any(String));
    expect(other.approvalId).not.toBe(asked.approvalId);
    expect(app.executions).toEqual([]);
  });
});

describe("SI-8: a 2026-07-28 requestState answers only its own principal", () => {
  const URL_META = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": URL_CAPABILITIES };
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "payments_refund" };
  async function modernRefund(url: URL, user: Headers, extra: Record<string, unknown> = {}) {
    const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "payments_refund", arguments: ARGS, _meta: URL_META, ...extra } };
    return (await messagesOf(await post(url, JSON.stringify(body), { ...headers, ...user })))[0] as { result?: { requestState?: string } };
  }

  it("SI-8: behind an authenticating proxy, another user's retry with the victim's requestState answers exactly like a forged one", async () => {
    const app = createApprovalsApp();
    const { url } = await serveBehindProxy(app);
    const state = (await modernRefund(url, ALICE.proxy)).result!.requestState!;
    const forged = `${state.slice(0, -2)}AA`;
    const retry = (requestState: string) => modernRefund(url, BOB.proxy, { requestState, inputResponses: { approval: { action: "accept" } } });
    expect(await retry(state)).toEqual(await retry(forged));
    expect(app.executions).toEqual([]);
  });
});

describe("SI-8: on one stdio connection, a pending approval and its completion belong to the user who was asked", () => {
  it("SI-8: after the signed-in user changes, the new user's identical call gets its own approval; only the first user's retry runs the approved one", async () => {
    const app = createApprovalsApp();
    const session = { user: "u_alice" };
    const listeners = new Set<(approvalId: string) => void>();
    const stdio = await connectRawStdio(
      app.runtime,
      {
        createContext: () => ({ actor: { id: session.user, kind: "user" }, context: {} }),
        ...ELICITATION,
        urlElicitation: { keys: STATE_KEYS, decisions: (listener) => (listeners.add(listener), () => void listeners.delete(listener)) },
      },
      "legacy",
      URL_CAPABILITIES,
    );
    let id = 1;
    const call = async () => askedOf(await stdio.request(id++, "tools/call", { name: "payments_refund", arguments: ARGS }));
    const asked = await call();
    expect(asked).toEqual(URL_ELICITED);
    session.user = "u_bob";
    const other = await call();
    expect(other).toEqual(URL_ELICITED);
    expect(other.approvalId).not.toBe(asked.approvalId);
    await approve(app, asked.approvalId!);
    for (const listener of [...listeners]) listener(asked.approvalId!);
    expect((await call()).approvalId).toBe(other.approvalId);
    expect(app.executions).toEqual([]);
    expect(stdio.notifications.map((n) => (n.params as { elicitationId?: string }).elicitationId)).toEqual([asked.approvalId]);
    session.user = "u_alice";
    expect(await call()).toEqual({ status: "ok", approvalId: undefined });
    expect(app.executions).toEqual([ARGS]);
  });
});

describe("SI-3: v1 stateful sessions behind an authenticating proxy belong to the user who opened them", () => {
  const V1_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const UNKNOWN_SESSION = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

  async function serveV1(maxSessionsPerPrincipal?: number) {
    const app = createTestApp();
    const handler = createMCPHttpHandler(app.runtime, {
      allowUnauthenticated: true,
      createContext: () => {
        const identity = proxyContext();
        return identity === null ? null : { actor: identity.actor, context: { tenant: "t1" } };
      },
      ...(maxSessionsPerPrincipal !== undefined && { maxSessionsPerPrincipal }),
    });
    return listen(behindProxy(handler));
  }
  async function open(url: URL, user: Headers): Promise<string> {
    const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const opened = await post(url, JSON.stringify(body), { ...V1_HEADERS, ...user });
    await opened.text();
    const sessionId = opened.headers.get("mcp-session-id")!;
    await (await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), { ...V1_HEADERS, ...user, "mcp-session-id": sessionId })).text();
    return sessionId;
  }
  async function whoami(url: URL, user: Headers, sessionId: string) {
    const body = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "notes_whoami", arguments: {} } };
    const response = await post(url, JSON.stringify(body), { ...V1_HEADERS, ...user, "mcp-session-id": sessionId });
    return { status: response.status, body: await response.text() };
  }

  it("SI-3: another user naming the victim's session is answered like an unknown session, never as the victim", async () => {
    const { url } = await serveV1();
    const sessionId = await open(url, ALICE.proxy);
    expect((await whoami(url, ALICE.proxy, sessionId)).body).toContain("u_alice");
    const hijack = await whoami(url, BOB.proxy, sessionId);
    expect(hijack.body).not.toContain("u_alice");
    expect(hijack).toEqual(await whoami(url, BOB.proxy, UNKNOWN_SESSION));
  });

  it("SI-3: a request the proxy names no one for owns no session: it cannot open one nor use the victim's", async () => {
    const { url } = await serveV1();
    const sessionId = await open(url, ALICE.proxy);
    expect((await whoami(url, ALICE.proxy, sessionId)).body).toContain("u_alice");
    const anonymous = await whoami(url, {}, sessionId);
    expect(anonymous.body).not.toContain("u_alice");
    expect(anonymous).toEqual(await whoami(url, {}, UNKNOWN_SESSION));
    const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const opened = await post(url, JSON.stringify(body), V1_HEADERS);
    expect({ status: opened.status, session: opened.headers.get("mcp-session-id"), body: await opened.text() }).toEqual({
      status: 403,
      session: null,
      body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Unauthorized: this request has no identity." }, id: null }),
    });
  });

  it("SI-3: another user opening more sessions than the cap closes only their own, never the victim's", async () => {
    const { url } = await serveV1(2);
    const sessionId = await open(url, ALICE.proxy);
    for (let i = 0; i < 3; i++) await open(url, BOB.proxy);
    const victim = await whoami(url, ALICE.proxy, sessionId);
    expect(victim.status).toBe(200);
    expect(victim.body).toContain("u_alice");
  });
});
