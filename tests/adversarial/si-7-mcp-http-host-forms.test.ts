// SI-7 (fail closed) for the Host check of both MCP HTTP fronts (issue 43, finding 3), with the Host forms the first
// suite (si-7-mcp-http-host-header) leaves out: two Host header lines in one request (RFC 9112 §3.2: a server must
// answer 400; Node's parser keeps only the first, so an allowed first line used to carry a foreign second one through),
// a trailing dot, another letter case, IPv6 and numeric IPv4 spellings, and whitespace around the value. Raw bytes over
// a loopback socket: fetch() will send none of these.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { createMCPHttpHandler } from "@orpc-agent/mcp/v1";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listen } from "../../packages/mcp/test/support/http.js";
import { callMessage, LEGACY_HEADERS, scopedApp, serveScoped } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

/** One HTTP/1.1 request written byte for byte; resolves with the status code and the body. */
function rawExchange(port: number, head: string[], body = ""): Promise<{ status: number; body: string }> {
  const bytes = Buffer.from(`${[...head, `content-length: ${Buffer.byteLength(body, "latin1")}`, "connection: close"].join("\r\n")}\r\n\r\n${body}`, "latin1");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

const CALL = JSON.stringify(callMessage("cheap_ping", "legacy"));
const HEADERS = Object.entries({ ...LEGACY_HEADERS, authorization: "Bearer tok-dana" }).map(([name, value]) => `${name}: ${value}`);
const call = (port: number, hostLines: string[]) => rawExchange(port, ["POST /mcp HTTP/1.1", ...hostLines.map((host) => `host: ${host}`), ...HEADERS], CALL);

/** The v2 endpoint (its allow-list names hostnames) or the v1 handler (whole Host values); `allowed` is the Host it serves. */
async function serve(front: "v2" | "v1", withAllowList: boolean) {
  const app = scopedApp();
  if (front === "v2") {
    const { port } = await serveScoped(app, withAllowList ? { allowedHosts: ["127.0.0.1", "localhost", "[::1]"] } : {});
    return { app, port, allowed: "127.0.0.1" };
  }
  const allowedHosts: string[] = [];
  const { url, port } = await listen(
    createMCPHttpHandler(app.runtime, {
      sessions: "stateless",
      verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "c1", scopes: ["mcp"], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : null),
      createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: { tenant: "t1" } }),
      ...(withAllowList && { allowedHosts }),
    }),
  );
  allowedHosts.push(url.host);
  return { app, port, allowed: url.host };
}

describe.each(["v2", "v1"] as const)("SI-7: two Host header lines on the %s front", (front) => {
  const pairs = (allowed: string): [string, string[]][] => [
    ["the allowed host, then a foreign one", [allowed, "evil.example"]],
    ["a foreign host, then the allowed one", ["evil.example", allowed]],
    ["the allowed host twice", [allowed, allowed]],
  ];

  it("SI-7: with an allow-list, each pair is refused exactly like a foreign host, and runs nothing", async () => {
    const { app, port, allowed } = await serve(front, true);
    const foreign = await call(port, ["evil.example"]);
    expect(foreign.status).toBe(403);
    for (const [label, lines] of pairs(allowed)) {
      const answer = await call(port, lines);
      expect({ label, status: answer.status, body: front === "v1" ? answer.body : undefined }).toEqual({
        label,
        status: 403,
        body: front === "v1" ? foreign.body : undefined,
      });
    }
    expect(app.runs).toEqual([]);
  });

  it("SI-7: without an allow-list, each pair is a bad request (RFC 9112 §3.2), never served, never a server error", async () => {
    const { app, port, allowed } = await serve(front, false);
    for (const [label, lines] of pairs(allowed)) expect({ label, status: (await call(port, lines)).status }).toEqual({ label, status: 400 });
    expect(app.runs).toEqual([]);
  });

  it("SI-7: one Host line is still served (the baseline the attack varies)", async () => {
    const { app, port, allowed } = await serve(front, true);
    expect((await call(port, [allowed])).status).toBe(200);
    expect(app.runs).toEqual(["cheap.ping"]);
  });
});

describe("SI-7: spellings of a Host on the v2 endpoint, whose allow-list names hostnames (decided: the hostname a URL parser reads)", () => {
  it.each([
    ["a trailing dot", "localhost."],
    ["an IPv4-mapped IPv6 literal of an allowed address", "[::ffff:127.0.0.1]"],
    ["a subdomain of an allowed name", "evil.localhost"],
    ["an allowed name as a prefix", "localhost.evil.example"],
  ])("SI-7: %s is refused as a foreign host", async (_label, host) => {
    const { app, port } = await serve("v2", true);
    expect((await call(port, [host])).status).toBe(403);
    expect(app.runs).toEqual([]);
  });

  it.each([
    ["upper case", "LOCALHOST"],
    ["an allowed IPv6 literal written out in full", "[0:0:0:0:0:0:0:1]"],
    ["a port", "localhost:8443"],
    ["whitespace around the value (removed by the HTTP parser)", "  localhost  "],
  ])("SI-7: %s of an allowed host is that host, and is served", async (_label, host) => {
    const { app, port } = await serve("v2", true);
    expect((await call(port, [host])).status).toBe(200);
    expect(app.runs).toEqual(["cheap.ping"]);
  });
});

describe("SI-7: spellings of a Host on the v1 handler, whose allow-list names whole Host values (decided: byte for byte)", () => {
  it.each([
    ["upper case", (host: string) => host.toUpperCase().replace("127.0.0.1", "LOCALHOST")],
    ["a trailing dot", (host: string) => host.replace(":", ".:")],
    ["a leading zero in the port", (host: string) => host.replace(":", ":0")],
    ["a short IPv4 form", (host: string) => host.replace("127.0.0.1", "127.1")],
  ])("SI-7: %s of the allowed Host is refused as a foreign host", async (_label, spell) => {
    const { app, port, allowed } = await serve("v1", true);
    expect((await call(port, [spell(allowed)])).status).toBe(403);
    expect(app.runs).toEqual([]);
  });
});
