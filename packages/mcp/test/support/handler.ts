// Test support for the v2 (2026-07-28 + legacy) endpoint: a loopback server whose URL is known before the handler
// is built (the audience check needs it), the v2 SDK Client and the v1 SDK Client, each with a bearer token.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { createMCPHandler, type MCPHandler } from "../../src/http/create-handler.js";
import type { MCPHandlerOptions } from "../../src/http/handler-options.js";
import { toNodeRequestListener } from "../../src/node/to-node-request-listener.js";
import { admin, dana, priya, type TestApp } from "./app.js";
import { closeAfterTest } from "./cleanup.js";

export const ACTORS: Record<string, typeof dana> = { "tok-dana": dana, "tok-priya": priya, "tok-admin": admin };
export const nowInSeconds = () => Math.floor(Date.now() / 1000);

/** Mounts whatever `build(url)` returns on an ephemeral 127.0.0.1 port through the SDK's Node adapter. */
export async function listenModern(build: (url: URL) => MCPHandler): Promise<{ url: URL; port: number; handler: MCPHandler }> {
  let handler: MCPHandler | undefined;
  let node: ReturnType<typeof toNodeRequestListener> | undefined;
  const server = createServer((req, res) => void node!(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  handler = build(url);
  node = toNodeRequestListener(handler);
  closeAfterTest(async () => {
    await handler!.close();
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  });
  return { url, port, handler };
}

export type Tokens = Record<string, Partial<AuthInfo> | undefined>;

/** Tokens `tok-<name>` verify to the actor's AuthInfo for `url` (scope `mcp`, an hour left), unless `overrides` say otherwise. */
export function standardOptions(url: URL, overrides: Partial<MCPHandlerOptions<{ tenant: string }>> = {}, tokens: Tokens = {}) {
  // An override may switch authentication mode; the runtime check refuses a mix.
  const options = {
    resource: url,
    verifyToken: (token) => {
      if (!(token in ACTORS) && !(token in tokens)) return null;
      return { token, clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600, resource: url, ...tokens[token] };
    },
    createContext: ({ authInfo }) => {
      const actor = ACTORS[authInfo?.token ?? ""] ?? (authInfo?.token.startsWith("tok-") ? ACTORS[`tok-${authInfo.token.split("-")[1]}`] : undefined);
      return actor ? { actor, context: { tenant: "t1" } } : null;
    },
    ...overrides,
  } as MCPHandlerOptions<{ tenant: string }>;
  return options;
}

export async function serveApp(app: Pick<TestApp, "runtime">, overrides: Partial<MCPHandlerOptions<{ tenant: string }>> = {}, tokens: Tokens = {}) {
  return listenModern((url) => createMCPHandler(app.runtime, standardOptions(url, overrides, tokens)));
}

function withBearer(token: string | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

/** The v2 SDK `Client`, pinned to the 2026-07-28 revision (no fallback), over Streamable HTTP. */
export async function connectModern(url: URL, token: string | undefined): Promise<ModernClient> {
  const client = new ModernClient({ name: "modern-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new ModernHttpTransport(url, { fetch: withBearer(token) }));
  closeAfterTest(() => client.close());
  return client;
}

/** The v1 SDK `Client` (2025-11-25, `initialize` handshake) over Streamable HTTP. */
export async function connectLegacy(url: URL, token: string | undefined): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-test", version: "1.0.0" });
  await client.connect(new LegacyHttpTransport(url, { fetch: withBearer(token) }));
  closeAfterTest(() => client.close());
  return client;
}

export type EraClient = {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, signal?: AbortSignal): Promise<unknown>;
};

export const ERAS = [
  {
    era: "2026-07-28 (v2 Client)",
    async connect(url: URL, token: string | undefined): Promise<EraClient> {
      const client = await connectModern(url, token);
      return { listTools: () => client.listTools(), callTool: (params, signal) => client.callTool(params, signal ? { signal } : undefined) };
    },
  },
  {
    era: "2025-11-25 (v1 Client)",
    async connect(url: URL, token: string | undefined): Promise<EraClient> {
      const client = await connectLegacy(url, token);
      return { listTools: () => client.listTools(), callTool: (params, signal) => client.callTool(params, undefined, signal ? { signal } : undefined) };
    },
  },
] as const;
