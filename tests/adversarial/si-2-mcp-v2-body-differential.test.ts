// SI-2 on the MCP v2 endpoint: per-tool scopes are checked on our parse of the body, and the SDK is handed that same
// parse. The attacks try to make the two disagree, or to slip a scoped call past the check: a BOM, gzip, a chunked
// body, escapes, duplicate and `__proto__` keys, confusable and differently-cased names, a miscased method, a body
// over the limit and a deeply nested one. A token without `reports:export` must never run `reports.export`, and the
// endpoint must keep answering afterwards.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { LEGACY_HEADERS, messagesOf, post, scopedApp, serveScoped } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reports_export","arguments":{}}}';
const variants: [string, string][] = [
  ["a UTF-8 byte order mark", `\uFEFF${call}`],
  ["an escaped name", call.replace("reports_export", "reports\\u005fexport")],
  ["leading whitespace and a trailing newline", `\r\n\t ${call}\n`],
  ["a __proto__ key carrying the method", '{"jsonrpc":"2.0","id":1,"__proto__":{"method":"tools/call"},"method":"tools/call","params":{"name":"reports_export","arguments":{}}}'],
  ["a __proto__ key carrying the name", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"name":"reports_export"},"arguments":{}}}'],
  ["a duplicate method key", '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"reports_export","arguments":{}},"method":"tools/call"}'],
  ["a confusable name (Cyrillic o)", call.replace("reports_export", "reports_exp\u043Ert")],
  ["a differently-cased name", call.replace("reports_export", "Reports_Export")],
  ["a miscased method", call.replace("tools/call", "Tools/call")],
  ["a nested batch", `[[${call}]]`],
];

async function stillServes(url: URL) {
  const response = await post(url, '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"cheap_ping","arguments":{}}}', LEGACY_HEADERS, "tok-dana");
  const [message] = (await messagesOf(response)) as { result?: { structuredContent?: unknown } }[];
  expect(message?.result?.structuredContent).toEqual({ status: "ok", data: { pong: true } });
}

describe("SI-2: a body our scope check and the SDK could read differently never runs a scoped tool", () => {
  it.each(variants)("SI-2: %s does not run the scoped tool for a token without the scope", async (_label, body) => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    await (await post(url, body, LEGACY_HEADERS, "tok-dana")).text();
    expect(app.runs).toEqual([]);
    await stillServes(url);
  });

  it("SI-2: a gzip body (Content-Encoding: gzip) does not run the scoped tool", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    await (await post(url, gzipSync(call), { ...LEGACY_HEADERS, "content-encoding": "gzip" }, "tok-dana")).text();
    expect(app.runs).toEqual([]);
    await stillServes(url);
  });

  it("SI-2: a chunked body split inside the tool name is checked as a whole: 403, nothing runs", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    const bytes = new TextEncoder().encode(call);
    const cut = call.indexOf("export");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const response = await fetch(url, { method: "POST", body, duplex: "half", headers: { ...LEGACY_HEADERS, authorization: "Bearer tok-dana" } } as RequestInit);
    await response.text();
    expect(response.status).toBe(403);
    expect(app.runs).toEqual([]);
  });

  it("SI-2: a body over the limit answers 413, chunked or declared, and runs nothing", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app, { maxBodyBytes: 4096 });
    const padded = call.replace('"arguments":{}', `"arguments":{"pad":"${"x".repeat(8192)}"}`);
    const declared = await post(url, padded, LEGACY_HEADERS, "tok-dana");
    const chunks = new TextEncoder().encode(padded);
    const streamed = await fetch(url, {
      method: "POST",
      body: new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(chunks), c.close()) }),
      duplex: "half",
      headers: { ...LEGACY_HEADERS, authorization: "Bearer tok-dana" },
    } as RequestInit);
    expect([declared.status, streamed.status]).toEqual([413, 413]);
    expect(app.runs).toEqual([]);
  });

  it("SI-2: deeply nested arguments to a scoped tool run nothing and leave the endpoint serving", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    const depth = 200_000;
    const nested = call.replace('"arguments":{}', `"arguments":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    await (await post(url, nested, LEGACY_HEADERS, "tok-dana")).text();
    expect(app.runs).toEqual([]);
    await stillServes(url);
  });
});
