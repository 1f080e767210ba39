import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CapabilityClientError, createHTTPCapabilityClient, type HTTPCapabilityClientOptions } from "../../src/http/index.js";
import { dana, latch, newInvocationId, startShop, type Shop } from "../server/remote-fixture.js";
import { ORPC_MAJOR } from "../../src/orpc/procedure.js";

// A canned HTTP server standing in for proxies, crashed servers and refusals: it counts every request it sees.
type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;
let behaviour: Behaviour = (_req, res) => res.end();
let seen: { url: string; headers: IncomingMessage["headers"] }[] = [];
let canned: Server;
let cannedUrl: string;

beforeAll(async () => {
  canned = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    req.resume();
    req.on("end", () => behaviour(req, res));
  });
  await new Promise<void>((r) => canned.listen(0, "127.0.0.1", () => r()));
  cannedUrl = `http://127.0.0.1:${(canned.address() as AddressInfo).port}/rpc`;
});
afterAll(async () => {
  canned.closeAllConnections();
  await new Promise<void>((r) => canned.close(() => r()));
});

let shop: Shop | undefined;
afterEach(async () => {
  seen = [];
  behaviour = (_req, res) => res.end();
  await shop?.close();
  shop = undefined;
});

const reply = (status: number, body: unknown): Behaviour => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
// The error body each major's RPCHandler writes: 1.x carries the status, 2.x an `inferable` flag instead.
const orpcError = (status: number, code: string, data?: unknown) =>
  ORPC_MAJOR === 1
    ? { json: { defined: false, code, status, message: code, data } }
    : { json: { defined: false, inferable: false, code, message: code, data } };
const cannedClient = (extra: Partial<HTTPCapabilityClientOptions> = {}) =>
  createHTTPCapabilityClient({ url: cannedUrl, ...extra });
const invokeOn = (client: ReturnType<typeof cannedClient>, invocationId = newInvocationId()) =>
  client.invoke({ capabilityId: "orders.refund", input: { orderId: "o" }, invocationId });

describe("createHTTPCapabilityClient: definite refusals (distributed.md §4)", () => {
  it("H3: 401, 403 and 429 are failed with mapped codes; 400, 404, 405, 413, 415 are the generic ADAPTER_ERROR answer", async () => {
    const expected: Record<number, object> = {
      400: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
      401: { code: "UNAUTHENTICATED", message: "Authentication is required.", retryable: false },
      403: { code: "FORBIDDEN", message: "The operation is not permitted.", retryable: false },
      404: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
      405: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
      413: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
      415: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
      429: { code: "FORBIDDEN", message: "Too many requests; try again later.", retryable: true },
    };
    for (const [status, error] of Object.entries(expected)) {
      seen = [];
      behaviour = Number(status) % 2 ? reply(Number(status), "<html>proxy says no</html>") : reply(Number(status), orpcError(Number(status), "X"));
      const invocationId = newInvocationId();
      const result = await invokeOn(cannedClient(), invocationId);
      expect(result, status).toEqual({ protocol: 1, invocationId, executionId: "", replayed: false, status: "failed", error });
      expect(seen).toHaveLength(1); // H4: exactly one request, never a retry
    }
  });

  it("H5: describe and reconcile reject with CapabilityClientError codes", async () => {
    const cases: [Behaviour, string, number | undefined][] = [
      [reply(400, orpcError(400, "BAD_REQUEST")), "BAD_REQUEST", 400],
      [reply(401, orpcError(401, "UNAUTHORIZED")), "UNAUTHENTICATED", 401],
      [reply(403, "no"), "FORBIDDEN", 403],
      [reply(429, "slow down"), "FORBIDDEN", 429],
      [reply(503, orpcError(503, "TIMEOUT", { code: "TIMEOUT" })), "TIMEOUT", 503],
      [reply(503, "maintenance"), "SERVER_ERROR", 503],
      [reply(500, orpcError(500, "INTERNAL_SERVER_ERROR")), "SERVER_ERROR", 500],
      [reply(200, { json: { protocol: 2 } }), "PROTOCOL", 200],
      [reply(200, "not json"), "PROTOCOL", 200],
      [(req) => req.socket.destroy(), "TRANSPORT", undefined],
    ];
    for (const [b, code, status] of cases) {
      behaviour = b;
      for (const call of [() => cannedClient().describe(), () => cannedClient().reconcile({ invocationId: "inv-1" })]) {
        seen = [];
        const failure = await call().catch((e: unknown) => e);
        expect(failure, code).toBeInstanceOf(CapabilityClientError);
        expect(failure).toMatchObject({ name: "CapabilityClientError", code, status });
        expect(seen).toHaveLength(1);
      }
    }
    behaviour = () => {}; // never answers
    const timedOut = await cannedClient({ timeoutMs: { describe: 30 } }).describe().catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ code: "TIMEOUT", operation: "describe" });
  });
});

describe("createHTTPCapabilityClient: unknown outcomes (distributed.md §4, §10 H2–H4)", () => {
  it("H3: after dispatch, 5xx and proxy statuses are outcome-unknown server-error", async () => {
    for (const status of [500, 502, 503, 504, 302]) {
      seen = [];
      behaviour = reply(status, "upstream");
      const invocationId = newInvocationId();
      expect(await invokeOn(cannedClient(), invocationId)).toEqual({
        protocol: 1,
        status: "outcome-unknown",
        invocationId,
        reason: "server-error",
        message: expect.stringMatching(/reconcile/),
      });
      expect(seen).toHaveLength(1);
    }
  });

  it("H3: a 200 that is undecodable, truncated, of another protocol or about another invocation is unreadable-response", async () => {
    const invocationId = newInvocationId();
    const truncated: Behaviour = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "400" });
      res.write('{"json":{"protocol":1,"status":"comp');
      setTimeout(() => res.destroy(), 5);
    };
    for (const b of [
      reply(200, "<html>"),
      truncated,
      reply(200, { json: { protocol: 2, status: "completed", invocationId, executionId: "e", replayed: false, output: 1 } }),
      reply(200, { json: { protocol: 1, status: "completed", invocationId: "inv-other", executionId: "e", replayed: false, output: 1 } }),
      reply(200, { json: { protocol: 1, status: "failed", invocationId, executionId: "e", replayed: false, error: { code: "X" } } }),
    ]) {
      seen = [];
      behaviour = b;
      expect(await invokeOn(cannedClient(), invocationId)).toMatchObject({ status: "outcome-unknown", reason: "unreadable-response", invocationId });
      expect(seen).toHaveLength(1);
    }
  });

  it("H3: a timeout or a caller abort after dispatch is outcome-unknown timeout / aborted; a dropped connection is transport", async () => {
    behaviour = () => {}; // accepts the request and never answers
    expect(await cannedClient({ timeoutMs: 40 }).invoke({ capabilityId: "c", input: 1, invocationId: "inv-t" })).toMatchObject({
      status: "outcome-unknown",
      reason: "timeout",
    });
    expect(await cannedClient({ timeoutMs: { invoke: 10_000, resume: 40 } }).resume({ invocationId: "inv-r", approvalId: "apr_1" })).toMatchObject({
      status: "outcome-unknown",
      reason: "timeout",
    });
    const arrived = latch();
    behaviour = () => arrived.release();
    const controller = new AbortController();
    const pending = cannedClient().invoke({ capabilityId: "c", input: 1, invocationId: "inv-a" }, { signal: controller.signal });
    await arrived.promise;
    controller.abort();
    expect(await pending).toMatchObject({ status: "outcome-unknown", reason: "aborted", invocationId: "inv-a" });
    // The client-level signal aborts every call of the client, likewise.
    const clientAbort = new AbortController();
    const arrivedAgain = latch();
    behaviour = () => arrivedAgain.release();
    const viaClient = cannedClient({ signal: clientAbort.signal }).invoke({ capabilityId: "c", input: 1, invocationId: "inv-c" });
    await arrivedAgain.promise;
    clientAbort.abort();
    expect(await viaClient).toMatchObject({ status: "outcome-unknown", reason: "aborted" });
    behaviour = (req) => req.socket.destroy();
    expect(await cannedClient().invoke({ capabilityId: "c", input: 1, invocationId: "inv-d" })).toMatchObject({ status: "outcome-unknown", reason: "transport" });
    expect(seen).toHaveLength(5);
  });

  it("H2: an abort before dispatch is cancelled CANCELLED and the server sees nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const invocationId = newInvocationId();
    expect(await invokeOn(createHTTPCapabilityClient({ url: cannedUrl, signal: controller.signal }), invocationId)).toEqual({
      protocol: 1,
      invocationId,
      executionId: "",
      replayed: false,
      status: "cancelled",
      error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false },
    });
    expect(await cannedClient().resume({ invocationId, approvalId: "apr_1" }, { signal: controller.signal })).toMatchObject({
      status: "cancelled",
      error: { code: "CANCELLED" },
    });
    await expect(cannedClient().describe({}, { signal: controller.signal })).rejects.toMatchObject({ code: "TRANSPORT" });
    expect(seen).toHaveLength(0);
  });

  it("H2: an abort while the headers callback runs, before dispatch, sends nothing either", async () => {
    const controller = new AbortController();
    const client = cannedClient({
      headers: async () => {
        controller.abort();
        return { authorization: "Bearer t" };
      },
    });
    expect(await client.invoke({ capabilityId: "c", input: 1, invocationId: "inv-h" }, { signal: controller.signal })).toMatchObject({
      status: "cancelled",
      error: { code: "CANCELLED" },
    });
    expect(seen).toHaveLength(0);
  });

  it("a failure before dispatch (headers callback) is failed ADAPTER_ERROR, generic; nothing was sent", async () => {
    const client = cannedClient({ headers: () => { throw new Error("token store down"); } });
    const invocationId = newInvocationId();
    expect(await invokeOn(client, invocationId)).toEqual({
      protocol: 1,
      invocationId,
      executionId: "",
      replayed: false,
      status: "failed",
      error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false },
    });
    await expect(client.describe()).rejects.toMatchObject({ code: "TRANSPORT" });
    expect(seen).toHaveLength(0);
  });
});

describe("createHTTPCapabilityClient: options and transport (H1)", () => {
  it("H1: a headers function is called per call, and a custom fetch carries every request", async () => {
    shop = await startShop();
    let token = 0;
    const fetched: string[] = [];
    const client = createHTTPCapabilityClient({
      url: shop.url,
      headers: () => ({ "x-actor": dana.id, "x-call": String(++token) }),
      fetch: async (input, init) => {
        fetched.push(input instanceof Request ? new URL(input.url).pathname : String(input));
        return fetch(input, init);
      },
    });
    const calls: string[] = [];
    shop.server.on("request", (req: IncomingMessage) => calls.push(String(req.headers["x-call"])));
    await client.describe({ scope: { tags: ["notes"] } });
    await client.invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId: newInvocationId() });
    expect(calls).toEqual(["1", "2"]);
    expect(fetched).toEqual(["/rpc/agent/describe", "/rpc/agent/invoke"]);
  });

  it("H1: static headers and a custom mount path", async () => {
    behaviour = reply(200, { json: { protocol: 1, invocationId: "inv-1", state: "absent" } });
    const client = createHTTPCapabilityClient({ url: new URL(cannedUrl), path: ["tools", "remote"], headers: new Headers({ "x-tenant": "t9" }) });
    expect(await client.reconcile({ invocationId: "inv-1" })).toEqual({ protocol: 1, invocationId: "inv-1", state: "absent" });
    expect(seen[0]).toMatchObject({ url: "/rpc/tools/remote/reconcile", headers: { "x-tenant": "t9" } });
  });

  it("rejects caller errors with TypeErrors before sending anything", async () => {
    const bad: unknown[] = [
      undefined,
      { url: "relative/path" },
      { url: 5 },
      { url: cannedUrl, path: [] },
      { url: cannedUrl, headers: 5 },
      { url: cannedUrl, fetch: "fetch" },
      { url: cannedUrl, signal: {} },
      { url: cannedUrl, timeoutMs: 0 },
      { url: cannedUrl, timeoutMs: { invoke: -1 } },
      { url: cannedUrl, timeoutMs: { delete: 5 } },
    ];
    for (const o of bad) expect(() => createHTTPCapabilityClient(o as never), JSON.stringify(o)).toThrow(TypeError);
    const client = cannedClient();
    await expect(client.invoke({ capabilityId: "c", input: 1, invocationId: "" })).rejects.toBeInstanceOf(TypeError);
    await expect(client.invoke({ capabilityId: "c", input: 1, invocationId: "-leading-dash" })).rejects.toBeInstanceOf(TypeError);
    await expect(client.invoke({ capabilityId: "", input: 1, invocationId: "inv-1" })).rejects.toBeInstanceOf(TypeError);
    await expect(client.invoke({ capabilityId: "c", input: 1, invocationId: "inv-1", correlationId: "\u0000" })).rejects.toBeInstanceOf(TypeError);
    await expect(client.invoke({ capabilityId: "c", input: 1, invocationId: "inv-1" }, { timeoutMs: -5 })).rejects.toBeInstanceOf(TypeError);
    await expect(client.resume({ invocationId: "inv-1", approvalId: "" })).rejects.toBeInstanceOf(TypeError);
    await expect(client.reconcile({ invocationId: "a b" })).rejects.toBeInstanceOf(TypeError);
    await expect(client.invoke(null as never)).rejects.toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(0);
  });

  it("describe over the real router returns the protocol answer", async () => {
    shop = await startShop();
    const listing = await shop.client().describe({ scope: { tags: ["orders"] } });
    expect(listing).toMatchObject({ protocol: 1, namespace: "shop", surface: "aiSdk" });
    expect(listing.descriptors.map((d) => d.id)).toEqual(["orders.refund"]);
  });
});
