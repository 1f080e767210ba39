// docs/architecture/spec/adapters.md#adapters-3-3: identity from transport-verified authInfo, once per session and credential; expiry enforced
// on every request; refusals are JSON-RPC errors; close evicts (docs/architecture/spec/adapters.md#adapters-3-10 items 2–6).
import { createHash } from "node:crypto";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MCPServerOptions, MCPSession } from "../../src/v1/index.js";
import { createMCPServer } from "../../src/v1/index.js";
import { admin, createTestApp, dana, priya } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectInMemory, tokenFor } from "../support/in-memory.js";
import { fingerprintOf } from "../../src/v1/session-identity.js";

closeEverythingAfterEachTest();
afterEach(() => void vi.useRealTimers());

const ACTORS = { "tok-dana": dana, "tok-priya": priya, "tok-admin": admin } as const;

/** createContext as an app writes it: the verified token names the actor; every call is recorded. */
function recordingContext() {
  const sessions: MCPSession[] = [];
  const createContext: MCPServerOptions<{ tenant: string }>["createContext"] = (session) => {
    sessions.push(session);
    const actor = ACTORS[session.authInfo?.token as keyof typeof ACTORS];
    return actor ? { actor, context: { tenant: `tenant-of-${actor.id}` } } : null;
  };
  return { sessions, createContext };
}

async function whoami(client: Awaited<ReturnType<typeof connectInMemory>>["client"]) {
  const result = await client.callTool({ name: "notes_whoami", arguments: {} });
  return result.structuredContent;
}

const nowInSeconds = () => Math.floor(Date.now() / 1000);

describe("per-session identity", () => {
  it("sessions with different actors get different tool lists; createContext runs once per session across list/call/list", async () => {
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const mcp = () => createMCPServer(runtime, { createContext });
    const asDana = await connectInMemory(mcp(), tokenFor("tok-dana"));
    const asAdmin = await connectInMemory(mcp(), tokenFor("tok-admin"));

    const danaTools = (await asDana.client.listTools()).tools.map((tool) => tool.name);
    expect(await whoami(asDana.client)).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "tenant-of-u_dana" } });
    expect((await asDana.client.listTools()).tools.map((tool) => tool.name)).toEqual(danaTools);
    const adminTools = (await asAdmin.client.listTools()).tools.map((tool) => tool.name);

    expect(danaTools).not.toContain("admin_purge");
    expect(adminTools).toContain("admin_purge");
    expect(adminTools.filter((name) => name !== "admin_purge")).toEqual(danaTools);
    expect(sessions.map((session) => session.authInfo?.token)).toEqual(["tok-dana", "tok-admin"]);
  });

  it("createContext receives the session's authInfo, as the transport verified it", async () => {
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const authInfo = tokenFor("tok-dana", { scopes: ["notes:read"], expiresAt: nowInSeconds() + 3600 });
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext }), authInfo);
    await client.listTools();
    expect(sessions).toEqual([{ sessionId: undefined, authInfo }]);
  });

  it("arguments never choose the actor (SI-3)", async () => {
    const { runtime } = createTestApp();
    const { createContext } = recordingContext();
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext }), tokenFor("tok-dana"));
    const result = await client.callTool({ name: "notes_whoami", arguments: { actor: { id: "u_admin", kind: "user" } }, _meta: { actor: "u_admin" } });
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "tenant-of-u_dana" } });
  });
});

describe("refused sessions", () => {
  it.each([
    ["returns null", () => null],
    ["returns undefined", () => undefined],
    ["returns no well-formed actor", () => ({ actor: { id: "", kind: "user" }, context: {} })],
    ["returns an unknown actor kind", () => ({ actor: { id: "u_x", kind: "robot" }, context: {} })],
    ["throws", () => {
      throw new Error("jwks fetch failed: secret-signing-key-id");
    }],
    ["rejects", () => Promise.reject(new Error("jwks fetch failed: secret-signing-key-id"))],
  ])("createContext that %s refuses list and call with Unauthorized; its text never reaches the client", async (_, createContext) => {
    const { runtime, auditEvents } = createTestApp();
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext: createContext as never }), tokenFor("tok-dana"));
    for (const attempt of [() => client.listTools(), () => client.callTool({ name: "notes_whoami", arguments: {} })]) {
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringMatching(/Unauthorized: no verified identity for this session/) });
      expect(JSON.stringify(error)).not.toContain("secret-signing-key-id");
      expect(String((error as Error).message)).not.toContain("jwks");
    }
    // Refused before the runtime: nothing was discovered or invoked.
    expect(await auditEvents()).toEqual([]);
  });

  it("a refusal is not cached: the next request asks createContext again", async () => {
    const { runtime } = createTestApp();
    let calls = 0;
    const createContext = () => (++calls === 1 ? null : { actor: dana, context: { tenant: "t" } });
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext }), tokenFor("tok-dana"));
    await expect(client.listTools()).rejects.toThrow(/Unauthorized/);
    await expect(client.listTools()).resolves.toMatchObject({ tools: expect.any(Array) });
    expect(calls).toBe(2);
  });

  it("no authInfo at all (stdio-like) is judged by createContext like any session; there is no anonymous default", async () => {
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext }));
    await expect(client.listTools()).rejects.toThrow(/Unauthorized/);
    expect(sessions).toEqual([{ sessionId: undefined, authInfo: undefined }]);
  });
});

describe("credential lifetime", () => {
  it("mid-session expiry refuses the next call and list; a refreshed token re-runs createContext", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const session = await connectInMemory(createMCPServer(runtime, { createContext }), tokenFor("tok-dana", { expiresAt: nowInSeconds() + 60 }));
    await session.client.listTools();
    expect(await whoami(session.client)).toMatchObject({ status: "ok" });

    vi.setSystemTime(new Date("2030-01-01T00:01:00Z")); // exactly expiresAt: expired (<=)
    for (const attempt of [() => session.client.callTool({ name: "notes_whoami", arguments: {} }), () => session.client.listTools()]) {
      await expect(attempt()).rejects.toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringMatching(/Unauthorized: access token expired/) });
    }
    expect(sessions).toHaveLength(1);

    session.setAuth(tokenFor("tok-dana", { expiresAt: nowInSeconds() + 60 }));
    expect(await whoami(session.client)).toMatchObject({ status: "ok", data: { actor: "u_dana" } });
    expect(sessions).toHaveLength(2);
  });

  it("a token swapped mid-session yields the new actor; tokens without expiresAt are accepted", async () => {
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const session = await connectInMemory(createMCPServer(runtime, { createContext }), tokenFor("tok-dana"));
    expect(await whoami(session.client)).toMatchObject({ data: { actor: "u_dana" } });
    expect(await whoami(session.client)).toMatchObject({ data: { actor: "u_dana" } });
    session.setAuth(tokenFor("tok-priya"));
    expect(await whoami(session.client)).toMatchObject({ data: { actor: "u_priya", tenant: "tenant-of-u_priya" } });
    expect(sessions.map((s) => s.authInfo?.token)).toEqual(["tok-dana", "tok-priya"]);
  });

  it("removing the credential mid-session re-judges the session, which createContext refuses", async () => {
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const session = await connectInMemory(createMCPServer(runtime, { createContext }), tokenFor("tok-dana"));
    expect(await whoami(session.client)).toMatchObject({ data: { actor: "u_dana" } });
    session.setAuth(undefined);
    await expect(whoami(session.client)).rejects.toThrow(/Unauthorized: no verified identity/);
    expect(sessions).toHaveLength(2);
  });
});

describe("eviction on close", () => {
  async function listTwiceAcrossReconnect(via: "connect" | "server", beforeConnect?: (mcp: ReturnType<typeof createMCPServer>) => void) {
    const { runtime } = createTestApp();
    const { sessions, createContext } = recordingContext();
    const mcp = createMCPServer(runtime, { createContext });
    beforeConnect?.(mcp);
    const first = await connectInMemory(mcp, tokenFor("tok-dana"), via);
    await first.client.listTools();
    await first.client.listTools();
    await first.close();
    // Same server, same (absent) session id, same token: only eviction makes createContext run again.
    const second = await connectInMemory(mcp, tokenFor("tok-dana"), via);
    await second.client.listTools();
    return sessions.length;
  }

  it("closing a transport connected through connect() evicts the session identity", async () => {
    expect(await listTwiceAcrossReconnect("connect")).toBe(2);
  });

  it("evicts through the transport hook even when the app overwrites server.onclose", async () => {
    let appOnclose = 0;
    const count = await listTwiceAcrossReconnect("connect", (mcp) => {
      mcp.server.onclose = () => void appOnclose++;
    });
    expect(count).toBe(2);
    expect(appOnclose).toBe(1);
  });

  it("evicts through server.onclose when the app connects mcp.server directly", async () => {
    expect(await listTwiceAcrossReconnect("server")).toBe(2);
  });
});

describe("credential fingerprints", () => {
  const authInfo = { token: "secret-token", clientId: "c", scopes: [] };

  it("node:crypto (synchronous) and Web Crypto (the fallback off Node) give the same SHA-256 hex, never the token", async () => {
    const sync = fingerprintOf(authInfo);
    expect(typeof sync).toBe("string");
    const viaWebCrypto = fingerprintOf(authInfo, null);
    expect(viaWebCrypto).toBeInstanceOf(Promise);
    expect(await viaWebCrypto).toBe(sync);
    expect(sync).toBe(createHash("sha256").update("secret-token").digest("hex"));
    expect(sync).not.toContain("secret-token");
  });

  it("a session without any AuthInfo has one constant fingerprint, answered synchronously", () => {
    expect(fingerprintOf(undefined)).toBe(fingerprintOf(undefined, null));
    expect(typeof fingerprintOf(undefined, null)).toBe("string");
  });

  it("SI-3: an AuthInfo without its token is refused, never folded into the no-credential constant", () => {
    for (const authInfo of [{ clientId: "c", scopes: [] }, { clientId: "c", scopes: [], token: "" }, { clientId: "c", scopes: [], token: 42 }]) {
      expect(() => fingerprintOf(authInfo as never)).toThrow(/carries no token/);
      expect(() => fingerprintOf(authInfo as never, null)).toThrow(/carries no token/);
    }
  });
});
