// SI-7 on the MCP v2 endpoint's HTTP edges: what is not clearly allowed is refused before any governance runs. The
// attacks: browser Origins that look local (null, case, trailing dot, IPv6-mapped, userinfo), Host look-alikes on a
// loopback-bound server, GET/DELETE/PUT/OPTIONS on the endpoint with and without a token, and RFC 9728 document
// path confusion (the document is public; the endpoint must not be reachable through, or mistaken for, its path).
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { callMessage, LEGACY_HEADERS, post, scopedApp, serveScoped } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const ping = JSON.stringify(callMessage("cheap_ping", "legacy"));

describe("SI-7: Origin and Host", () => {
  it.each(["null", "http://localhost.", "http://localhost.evil.example", "http://evil.example@localhost.evil.example", "http://[::ffff:7f00:1]", "file://", "http://127.0.0.1.nip.io", "localhost", "http://localhost http://evil.example"])(
    "SI-7: the default Origin check refuses %j with 403 and runs nothing",
    async (origin) => {
      const app = scopedApp();
      const { url } = await serveScoped(app);
      const response = await post(url, ping, { ...LEGACY_HEADERS, origin }, "tok-dana");
      await response.text();
      expect(response.status).toBe(403);
      expect(app.runs).toEqual([]);
    },
  );

  it.each(["http://LOCALHOST:5173", "http://127.0.0.1", "http://[::1]:8080"])("SI-7: the local Origin %j is admitted", async (origin) => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    expect((await post(url, ping, { ...LEGACY_HEADERS, origin }, "tok-dana")).status).toBe(200);
  });

  it.each(["evil.example", "localhost.", "127.0.0.1.evil.example", "[::ffff:127.0.0.1]"])("SI-7: allowedHosts refuses the Host %j with 403", async (host) => {
    const app = scopedApp();
    const { handler, url } = await serveScoped(app, { allowedHosts: ["127.0.0.1", "localhost"] });
    // fetch() will not forge Host; the handler is driven directly with the Request a proxy would forward.
    const request = new Request(url, { method: "POST", body: ping, headers: { ...LEGACY_HEADERS, host, authorization: "Bearer tok-dana" } });
    const response = await handler.fetch(request);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Invalid Host");
    expect(app.runs).toEqual([]);
  });
});

describe("SI-7: other methods on the endpoint", () => {
  it.each(["GET", "DELETE", "PUT", "PATCH", "OPTIONS"])("SI-7: %s without a token answers 401; with one it is no success and runs nothing", async (method) => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    const anonymous = await fetch(url, { method, headers: { accept: "application/json, text/event-stream", "mcp-session-id": "s1" } });
    expect(anonymous.status).toBe(401);
    const signed = await fetch(url, { method, headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", authorization: "Bearer tok-dana" } });
    await signed.text();
    expect(signed.status).toBeGreaterThanOrEqual(400);
    expect(signed.status).toBeLessThan(500);
    expect(app.runs).toEqual([]);
  });
});

describe("SI-7: JSON that is no JSON-RPC message", () => {
  it.each(["null", "5", '"tools/call"', "[]", "{}", "[null]", '{"method":"tools/call"}', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}'])(
    "SI-7: the body %s answers without a server error and runs nothing",
    async (body) => {
      const app = scopedApp();
      const { url } = await serveScoped(app);
      const response = await post(url, body, LEGACY_HEADERS, "tok-dana");
      await response.text();
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(500);
      expect(app.runs).toEqual([]);
    },
  );
});

describe("SI-7: the RFC 9728 document's path", () => {
  const options = { authorizationServers: ["https://auth.example.com"] };

  it.each(["/.well-known/oauth-protected-resource/mcp/", "/.well-known/oauth-protected-resource/MCP", "/.well-known/oauth-protected-resource%2Fmcp", "//.well-known/oauth-protected-resource/mcp"])(
    "SI-7: a look-alike document path %s is the endpoint, so it asks for a token",
    async (path) => {
      const app = scopedApp();
      const { url } = await serveScoped(app, options);
      const response = await fetch(new URL(`http://${url.host}${path}`), { headers: { accept: "application/json, text/event-stream" } });
      expect(response.status).toBe(401);
    },
  );

  it("SI-7: a tools/call POSTed to the document's path is refused 405 and runs nothing, token or not", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app, options);
    const documentUrl = new URL("/.well-known/oauth-protected-resource/mcp", url);
    for (const token of [undefined, "tok-dana"]) expect((await post(documentUrl, ping, LEGACY_HEADERS, token)).status).toBe(405);
    expect(app.runs).toEqual([]);
  });

  it("SI-7: the document names this resource and nothing about tools or callers", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app, options);
    const document = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url), { headers: { authorization: "Bearer tok-dana" } })).json()) as Record<string, unknown>;
    expect(document).toEqual({ resource: url.href, authorization_servers: ["https://auth.example.com/"], bearer_methods_supported: ["header"] });
  });
});
