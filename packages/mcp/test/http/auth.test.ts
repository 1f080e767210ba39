// The endpoint as an OAuth 2.1 resource server: RFC 9728 metadata at the path-aware well-known URL, 401 challenges
// naming it (and the scopes), the audience check, expiry-less tokens refused, per-tool scopes as 403
// insufficient_scope (only for tools the caller can see), Origin validated by default. Raw HTTP on loopback, both eras.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { createScopedApp } from "./scoped-app.js";
import { nowInSeconds, serveApp } from "../support/handler.js";

closeEverythingAfterEachTest();

const MODERN_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };
const LEGACY_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const listBody = (id = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } },
  });
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

async function post(url: URL, body: string, headers: Record<string, string>, token?: string) {
  return fetch(url, { method: "POST", body, headers: { ...headers, ...(token !== undefined && { authorization: `Bearer ${token}` }) } });
}

describe("RFC 9728 protected-resource metadata", () => {
  it("is served at the path-aware well-known URL when the app names its authorization servers", async () => {
    const { url } = await serveApp(createTestApp(), { authorizationServers: ["https://auth.example.com"], scopesSupported: ["mcp", "orders:refund"] });
    const response = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: url.href,
      authorization_servers: ["https://auth.example.com/"],
      scopes_supported: ["mcp", "orders:refund"],
      bearer_methods_supported: ["header"],
    });
    expect((await fetch(new URL("/.well-known/oauth-protected-resource", url))).status).not.toBe(200);
  });

  it("is not served without authorization servers, and then no challenge points at it, while the audience check holds", async () => {
    const tokens = { "tok-elsewhere": { resource: new URL("https://other.example.com/mcp") } };
    // `resource` set (the audience check), `authorizationServers` not: discovery is the app's business elsewhere.
    const { url } = await serveApp(createScopedApp(), { requiredScopes: ["mcp"] }, tokens);
    // No document here: the request falls through to the endpoint, which refuses it like any unauthenticated one.
    expect((await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url))).status).not.toBe(200);
    const toolCall = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "reports_export", arguments: {} } });
    const challenges = [
      await post(url, INITIALIZE, LEGACY_HEADERS),
      await post(url, INITIALIZE, LEGACY_HEADERS, "tok-nobody"),
      await post(url, INITIALIZE, LEGACY_HEADERS, "tok-elsewhere"),
      await post(url, toolCall, { ...LEGACY_HEADERS, "mcp-protocol-version": "2025-11-25" }, "tok-dana"),
    ];
    expect(challenges.map((response) => response.status)).toEqual([401, 401, 401, 403]);
    for (const response of challenges) {
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).not.toContain("resource_metadata");
    }
    expect(challenges[3]!.headers.get("www-authenticate")).toContain('scope="mcp reports:export"');
  });

  it("names the served document in scope challenges too", async () => {
    const { url } = await serveApp(createScopedApp(), { authorizationServers: ["https://auth.example.com"], requiredScopes: ["mcp", "admin"] });
    const refused = await post(url, INITIALIZE, LEGACY_HEADERS, "tok-dana");
    expect(refused.status).toBe(403);
    const pointer = refused.headers.get("www-authenticate")?.match(/resource_metadata="([^"]+)"/)?.[1];
    expect(pointer).toBe(new URL("/.well-known/oauth-protected-resource/mcp", url).href);
    expect((await fetch(pointer!)).status).toBe(200);
  });
});

describe.each([
  { era: "2026-07-28", headers: MODERN_HEADERS, body: listBody() },
  { era: "2025-11-25", headers: LEGACY_HEADERS, body: INITIALIZE },
])("bearer refusals ($era)", ({ headers, body }) => {
  const tokens = {
    "tok-expired": { expiresAt: nowInSeconds() - 10 },
    "tok-noexp": { expiresAt: undefined },
    "tok-forever": { expiresAt: Number.POSITIVE_INFINITY },
    "tok-elsewhere": { resource: new URL("https://other.example.com/mcp") },
  };

  it.each([
    ["no token", undefined],
    ["a bad token", "tok-nobody"],
    ["an expired token", "tok-expired"],
    ["a token without expiry", "tok-noexp"],
    ["a token with an infinite expiry", "tok-forever"],
    ["a token for another audience", "tok-elsewhere"],
  ])("answers %s with 401 invalid_token and a challenge naming the metadata document", async (_label, token) => {
    const { url } = await serveApp(createTestApp(), { authorizationServers: ["https://auth.example.com"], requiredScopes: ["mcp"] }, tokens);
    const response = await post(url, body, headers, token);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", url).href}"`);
    expect(challenge).toContain('scope="mcp"');
  });

  it("answers a token lacking an endpoint scope with 403 insufficient_scope", async () => {
    const { url } = await serveApp(createTestApp(), { requiredScopes: ["mcp", "admin"] });
    const response = await post(url, body, headers, "tok-dana");
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(response.headers.get("www-authenticate")).toContain('scope="mcp admin"');
  });
});

describe("per-tool scopes (meta.adapters.mcp.scopes)", () => {
  const callBody = (name: string, era: "modern" | "legacy") =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name,
        arguments: {},
        ...(era === "modern" && {
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} },
        }),
      },
    });

  it.each(["modern", "legacy"] as const)("a visible tool needing a missing scope answers 403 insufficient_scope naming it (%s)", async (era) => {
    const { url } = await serveApp(createScopedApp(), { resource: undefined });
    const headers = era === "modern" ? { ...MODERN_HEADERS, "mcp-name": "reports_export", "mcp-method": "tools/call" } : { ...LEGACY_HEADERS, "mcp-protocol-version": "2025-11-25" };
    const refused = await post(url, callBody("reports_export", era), headers, "tok-dana");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(refused.headers.get("www-authenticate")).toContain('scope="reports:export"');
  });

  it("a hidden scoped tool answers exactly as an unknown one: no scope challenge reveals it (SI-8)", async () => {
    const { url } = await serveApp(createScopedApp(), { resource: undefined });
    const headersFor = (name: string) => ({ ...MODERN_HEADERS, "mcp-name": name, "mcp-method": "tools/call" });
    const hidden = await post(url, callBody("secret_export", "modern"), headersFor("secret_export"), "tok-dana");
    const unknown = await post(url, callBody("no_such_tool", "modern"), headersFor("no_such_tool"), "tok-dana");
    expect(hidden.status).toBe(200);
    expect(await hidden.text()).toBe(await unknown.text());
  });
});

const LIST_HEADERS = { ...MODERN_HEADERS, "mcp-method": "tools/list" };

describe("Origin (DNS rebinding)", () => {
  it("refuses a foreign browser Origin by default and admits localhost and configured ones", async () => {
    const { url } = await serveApp(createTestApp());
    expect((await post(url, listBody(), { ...LIST_HEADERS, origin: "https://evil.example" }, "tok-dana")).status).toBe(403);
    expect((await post(url, listBody(), { ...LIST_HEADERS, origin: "null" }, "tok-dana")).status).toBe(403);
    expect((await post(url, listBody(), { ...LIST_HEADERS, origin: "http://localhost:5173" }, "tok-dana")).status).toBe(200);
    const configured = await serveApp(createTestApp(), { allowedOrigins: ["app.example.com"] });
    expect((await post(configured.url, listBody(), { ...LIST_HEADERS, origin: "https://app.example.com" }, "tok-dana")).status).toBe(200);
    expect((await post(configured.url, listBody(), { ...LIST_HEADERS, origin: "http://localhost:5173" }, "tok-dana")).status).toBe(403);
  });
});
