// SI-7 on the MCP v2 endpoint's bearer gate: whatever the app's verifier hands back, a token is admitted only when
// it is well-formed, unexpired, for this resource and holds the scopes. The attacks: scopes as a space-delimited
// string (a JWT `scope` claim passed through, which substring-matches `includes`), no scopes at all, getters that
// throw or answer differently on each read, a verifier that throws a getter-laden object, odd expiries, audience
// look-alikes and malformed Authorization headers. A refusal is a 401/403 challenge, and no tool runs.
import { describe, expect, it } from "vitest";
import { nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { callMessage, LEGACY_HEADERS, post, scopedApp, serveScoped } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

type Verified = (url: URL) => unknown;
const valid = (url: URL) => ({ token: "tok-dana", clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600, resource: url });

async function attempt(verified: Verified, header = "Bearer tok-dana") {
  const app = scopedApp();
  const { url } = await serveScoped(app, { requiredScopes: ["mcp"], verifyToken: () => verified(url) as never });
  const response = await fetch(url, { method: "POST", body: JSON.stringify(callMessage("cheap_ping", "legacy")), headers: { ...LEGACY_HEADERS, authorization: header } });
  await response.text();
  return { status: response.status, challenge: response.headers.get("www-authenticate"), runs: app.runs };
}

describe("SI-7: the bearer gate refuses what the verifier returns unless it is a well-formed AuthInfo", () => {
  it.each<[string, Verified]>([
    ["scopes as a space-delimited string containing the scope's letters", (url) => ({ ...valid(url), scopes: "mcpx reports:export" })],
    ["scopes as a string equal to the scope", (url) => ({ ...valid(url), scopes: "mcp" })],
    ["no scopes", (url) => ({ ...valid(url), scopes: undefined })],
    ["scopes holding a non-string", (url) => ({ ...valid(url), scopes: [{ toString: () => "mcp" }] })],
    ["a scopes getter that throws", (url) => Object.defineProperty({ ...valid(url) }, "scopes", { get: () => { throw new Error("boom"); }, enumerable: true })],
    ["an expiresAt getter that throws", (url) => Object.defineProperty({ ...valid(url) }, "expiresAt", { get: () => { throw new Error("boom"); }, enumerable: true })],
    ["a string expiry", (url) => ({ ...valid(url), expiresAt: String(nowInSeconds() + 3600) })],
    ["a NaN expiry", (url) => ({ ...valid(url), expiresAt: Number.NaN })],
    ["a -Infinity expiry", (url) => ({ ...valid(url), expiresAt: Number.NEGATIVE_INFINITY })],
    ["an expiry one second ago", (url) => ({ ...valid(url), expiresAt: nowInSeconds() - 1 })],
    ["a resource differing in path case", (url) => ({ ...valid(url), resource: new URL(url.href.replace("/mcp", "/MCP")) })],
    ["a resource extending the path", (url) => ({ ...valid(url), resource: `${url.href}-evil` })],
    ["a resource with a query", (url) => ({ ...valid(url), resource: `${url.href}?tenant=other` })],
    ["a resource with userinfo", (url) => ({ ...valid(url), resource: url.href.replace("http://", "http://evil@") })],
    ["a resource on another port", (url) => ({ ...valid(url), resource: url.href.replace(`:${url.port}`, ":1") })],
    ["no resource", (url) => ({ ...valid(url), resource: undefined })],
    ["null", () => null],
    ["a string", () => "tok-dana"],
  ])("SI-7: %s is refused with a challenge and runs nothing", async (_label, verified) => {
    const result = await attempt(verified);
    expect([401, 403]).toContain(result.status);
    expect(result.challenge).toMatch(/^Bearer error="(invalid_token|insufficient_scope)"/);
    expect(result.runs).toEqual([]);
  });

  it("SI-7: a Proxy whose expiry turns infinite after the first read is checked on one snapshot", async () => {
    let reads = 0;
    const result = await attempt((url) => new Proxy(valid(url), { get: (target, key) => (key === "expiresAt" && reads++ > 0 ? Number.POSITIVE_INFINITY : target[key as keyof ReturnType<typeof valid>]) }));
    expect(reads).toBe(1);
    expect(result.status).toBe(200);
  });

  it("SI-7: a verifier throwing a getter-laden object answers 401 invalid_token", async () => {
    const app = scopedApp();
    const hostile = Object.defineProperty({}, "message", { get: () => { throw new Error("read me"); } });
    const { url } = await serveScoped(app, { verifyToken: () => { throw hostile; } });
    const response = await post(url, JSON.stringify(callMessage("cheap_ping", "legacy")), LEGACY_HEADERS, "tok-dana");
    expect(response.status).toBe(401);
    expect(app.runs).toEqual([]);
  });

  it.each(["Bearer", "Bearer ", "Bearer  tok-dana", "Basic dG9rLWRhbmE=", "tok-dana", "Bearertok-dana"])(
    "SI-7: the Authorization header %j answers 401 and runs nothing",
    async (header) => {
      const result = await attempt(valid, header);
      expect(result.status).toBe(401);
      expect(result.runs).toEqual([]);
    },
  );

  it("SI-7: the well-formed AuthInfo is admitted (the refusals above are about the shape, not the route)", async () => {
    const result = await attempt(valid);
    expect(result.status).toBe(200);
    expect(result.runs).toEqual(["cheap.ping"]);
  });
});
