// docs/architecture/spec/adapters.md#adapters-3-9 `toNodeRequestListener`: a web Request from the Node request (URL from Host and req.url, method,
// headers, streamed body, a signal aborted on disconnect), then status, headers and a streamed body back.
import { Agent, request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { toNodeHandler, toNodeRequestListener } from "../../../src/v1/index.js";
import * as nodeEntry from "../../../src/node.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../../support/cleanup.js";
import { listen, rawRequest } from "../../support/http.js";

closeEverythingAfterEachTest();

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("toNodeRequestListener", () => {
  it("keeps toNodeHandler, the deprecated name, as the same function on the v1 and node entries", () => {
    expect(toNodeHandler).toBe(toNodeRequestListener);
    expect(nodeEntry.toNodeHandler).toBe(nodeEntry.toNodeRequestListener);
  });

  it("hands the handler a web Request: URL from Host and path, method, headers, and the body", async () => {
    const seen: { url: string; method: string; headers: [string, string][]; body: string }[] = [];
    const { port } = await listen(async (request) => {
      const headers: [string, string][] = [];
      request.headers.forEach((value, name) => headers.push([name, value]));
      seen.push({ url: request.url, method: request.method, headers, body: await request.text() });
      return new Response("ok");
    });
    const response = await rawRequest(port, { method: "PUT", path: "/mcp/x?y=1", headers: { host: "api.example:8443", "x-trace": "t1" }, body: "hello body" });
    expect(response).toMatchObject({ status: 200, body: "ok" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: "http://api.example:8443/mcp/x?y=1", method: "PUT", body: "hello body" });
    expect(seen[0]!.headers).toEqual(expect.arrayContaining([["host", "api.example:8443"], ["x-trace", "t1"], ["content-length", "10"]]));
  });

  it("writes the status, headers (each Set-Cookie kept apart) and body", async () => {
    const { port } = await listen(async () => {
      const headers = new Headers({ "content-type": "text/plain", "x-one": "1" });
      headers.append("set-cookie", "a=1");
      headers.append("set-cookie", "b=2");
      return new Response("created", { status: 201, headers });
    });
    const response = await rawRequest(port, { method: "GET" });
    expect(response.status).toBe(201);
    expect(response.body).toBe("created");
    expect(response.headers["x-one"]).toBe("1");
    expect(response.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
  });

  it("streams the body: the client reads the first event before the stream ends", async () => {
    const release = deferred();
    const { port } = await listen(async () => {
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("data: first\n\n"));
          await release.promise;
          controller.enqueue(new TextEncoder().encode("data: second\n\n"));
          controller.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    });
    const firstChunk = deferred<string>();
    const chunks: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/mcp", agent: false }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          chunks.push(chunk);
          firstChunk.resolve(chunk);
        });
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
    expect(await firstChunk.promise).toBe("data: first\n\n");
    release.resolve();
    await ended;
    expect(chunks.join("")).toBe("data: first\n\ndata: second\n\n");
  });

  it("aborts the request signal and cancels the response body when the client disconnects", async () => {
    const handled = deferred<AbortSignal>();
    const cancelled = deferred<void>();
    const { port } = await listen(async (request) => {
      handled.resolve(request.signal);
      const stream = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode(": open\n\n")),
        cancel: () => cancelled.resolve(),
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    });
    const req = httpRequest({ host: "127.0.0.1", port, path: "/mcp", agent: false }, (res) => res.once("data", () => req.destroy()));
    req.on("error", () => undefined);
    req.end();
    const signal = await handled.promise;
    await cancelled.promise;
    expect(signal.aborted).toBe(true);
  });

  it("a handler rejection answers 500 without its text", async () => {
    const { port } = await listen(async () => {
      throw new Error("stack trace with secret-db-host");
    });
    const response = await rawRequest(port, { method: "GET" });
    expect(response.status).toBe(500);
    expect(response.body).toBe("");
    expect(JSON.stringify(response.headers)).not.toContain("secret-db-host");
  });

  it("a body failing after the headers were sent just ends the response", async () => {
    const { port } = await listen(async () => {
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new TextEncoder().encode("partial"));
          controller.error(new Error("upstream secret-db-host"));
        },
      });
      return new Response(stream);
    });
    const response = await rawRequest(port, { method: "GET" });
    expect(response.status).toBe(200);
    expect(response.body).not.toContain("secret-db-host");
  });

  it("an unread body leaves the keep-alive connection usable for the next request", async () => {
    const bodies: string[] = [];
    const { port } = await listen(async (request) => {
      if (request.headers.get("x-read") === "yes") bodies.push(await request.text());
      return new Response(request.headers.get("x-read") === "yes" ? "read" : "ignored", { status: 200 });
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    closeAfterTest(() => agent.destroy());
    const send = (headers: Record<string, string>, body: string) =>
      new Promise<{ body: string; socket: unknown }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/mcp", agent, headers: { ...headers, "content-length": String(body.length) } }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ body: text, socket: req.socket }));
        });
        req.on("error", reject);
        req.end(body);
      });
    const first = await send({}, "x".repeat(5000));
    const second = await send({ "x-read": "yes" }, "second body");
    expect(first.body).toBe("ignored");
    expect(second.body).toBe("read");
    expect(bodies).toEqual(["second body"]);
    expect(second.socket).toBe(first.socket);
  });

  it("a body abandoned at a limit is not drained: the connection closes after the response", async () => {
    const { port } = await listen(async (request) => {
      const reader = request.body!.getReader();
      await reader.read();
      await reader.cancel();
      return new Response("too large", { status: 413 });
    });
    const response = await rawRequest(port, { body: "y".repeat(512 * 1024), chunked: true });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
  });
});
