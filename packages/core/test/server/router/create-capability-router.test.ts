import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { os } from "@orpc/server";
import { RPCHandler as FetchRPCHandler } from "@orpc/server/fetch";
import { RPCHandler as NodeRPCHandler } from "@orpc/server/node";
import { z } from "zod";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  hide,
  allow,
  type AgentRuntime,
} from "../../../src/index.js";
import { CapabilityClientError, createHTTPCapabilityClient } from "../../../src/http/index.js";
import { createCapabilityRouter, createInProcessCapabilityClient, createInMemoryInvocationJournal, createInvocationService } from "../../../src/server/index.js";
import {
  allowAll,
  createShopApp,
  dana,
  latch,
  newInvocationId,
  resolveFromHeaders,
  startShop,
  type AppContext,
  type RequestContext,
  type Shop,
} from "../remote-fixture.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
  vi.restoreAllMocks();
});

const quiet = () => vi.spyOn(console, "warn").mockImplementation(() => {});
const post = (url: string, op: string, json: unknown, headers: Record<string, string> = { "x-actor": dana.id }) =>
  fetch(`${url}/agent/${op}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ json }) });

describe("createCapabilityRouter construction (S2)", () => {
  const app = createShopApp();
  const valid = { service: app.service, runtime: () => app.makeRuntime(), surface: "aiSdk" as const, resolve: resolveFromHeaders, authorize: allowAll };

  it("S2 / D-2: a missing authorize callback, a non-network surface or a bad option is a TypeError", () => {
    quiet();
    const bad: Record<string, unknown>[] = [
      { service: undefined },
      { runtime: undefined },
      { runtime: { registry: {} } },
      { surface: "direct" },
      { surface: "test" },
      { surface: "cli" },
      { resolve: undefined },
      { authorize: undefined },
      { authorize: { ...allowAll, reconcile: undefined } },
      { authorize: { describe: allowAll.describe, invoke: allowAll.invoke, resume: allowAll.resume } },
      { abortOnDisconnect: "writes" },
      { drainAudit: true },
      { drainAudit: { timeoutMs: 0 } },
    ];
    for (const over of bad) expect(() => createCapabilityRouter({ ...valid, ...over } as never), JSON.stringify(over)).toThrow(TypeError);
    expect(() => createCapabilityRouter(valid)).not.toThrow();
  });

  it("S2: warns once per construction when the journal is not durable", () => {
    const warn = quiet();
    createCapabilityRouter(valid);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[orpc-agent\].*not durable/);
    warn.mockClear();
    const durable = createInvocationService({ journal: Object.assign(Object.create(createInMemoryInvocationJournal()), { durable: true }), namespace: "shop", revision: "r1" });
    createCapabilityRouter({ ...valid, service: durable });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("S9: toolNaming collisions", () => {
  const base = agentProcedure(os);
  const cap = (expose: Record<string, boolean>) =>
    base.input(z.object({})).meta(agentMeta({ description: "x", expose, sideEffect: "read", risk: "low" })).handler(() => 1);
  const runtimeOn = (registry = createCapabilityRegistry({ a: cap({ aiSdk: true }), b: cap({ aiSdk: true }), c: cap({ mcp: true }) })) =>
    createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
  const serviceWith = (toolNaming: { aiSdk?: (id: string) => string; mcp?: (id: string) => string }) =>
    createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "shop", revision: "r1", toolNaming });
  const options = (service: ReturnType<typeof serviceWith>, runtime: unknown) => ({ service, runtime, surface: "aiSdk" as const, resolve: resolveFromHeaders, authorize: allowAll }) as never;

  it("S9: a value runtime's collision among capabilities exposed on a surface fails construction, naming both ids", () => {
    quiet();
    expect(() => createCapabilityRouter(options(serviceWith({ aiSdk: () => "same" }), runtimeOn()))).toThrow(/collision on aiSdk: "same" names both a and b/i);
    // mcp: only `c` is exposed there, so one name for everything collides with nothing.
    expect(() => createCapabilityRouter(options(serviceWith({ mcp: () => "same" }), runtimeOn()))).not.toThrow();
    // Hidden from an actor by policy still counts: the domain is exposure, never the actor.
    const hiddenForAll = createAgentRuntime({
      governance: defineGovernance({ registry: createCapabilityRegistry({ a: cap({ aiSdk: true }), b: cap({ aiSdk: true }) }), policies: [definePolicy("hide", () => hide(), { phases: ["discovery"] })] }),
      audit: () => {},
    });
    expect(() => createCapabilityRouter(options(serviceWith({ aiSdk: () => "same" }), hiddenForAll))).toThrow(TypeError);
  });

  it("S9: with a runtime factory the check runs on the first request per registry, before the service, and is remembered", async () => {
    quiet();
    const registry = createCapabilityRegistry({ a: cap({ aiSdk: true }), b: cap({ aiSdk: true }) });
    let builds = 0;
    const service = serviceWith({ aiSdk: () => "same" });
    const router = createCapabilityRouter<RequestContext, AppContext>({
      service,
      runtime: () => {
        builds++;
        return createAgentRuntime<AppContext>({ governance: defineGovernance({ registry }), audit: () => {} });
      },
      surface: "aiSdk",
      resolve: resolveFromHeaders,
      authorize: allowAll,
    });
    const client = createInProcessCapabilityClient(router, { context: { headers: { "x-actor": dana.id } } });
    await expect(client.describe()).rejects.toMatchObject({ code: "SERVER_ERROR", status: 500 });
    const invocationId = newInvocationId();
    expect(await client.invoke({ capabilityId: "a", input: {}, invocationId })).toMatchObject({ status: "outcome-unknown", reason: "server-error" });
    expect(await service.get(invocationId)).toBeNull(); // the service was never called
    expect(builds).toBe(2);

    const fine = createInProcessCapabilityClient(
      createCapabilityRouter<RequestContext, AppContext>({
        service: serviceWith({ aiSdk: (id) => `t_${id}` }),
        runtime: () => createAgentRuntime<AppContext>({ governance: defineGovernance({ registry }), audit: () => {} }),
        surface: "aiSdk",
        resolve: resolveFromHeaders,
        authorize: allowAll,
      }),
      { context: { headers: { "x-actor": dana.id } } },
    );
    expect((await fine.describe()).descriptors.map((d) => d.toolNames.aiSdk)).toEqual(["t_a", "t_b"]);
  });
});

describe("the router over HTTP", () => {
  it("S1 / D-1: every operation rejects body keys the server fixes, with 400, before anything runs", async () => {
    shop = await startShop();
    const invocationId = newInvocationId();
    const requests: [string, Record<string, unknown>][] = [
      ["describe", { scope: { tags: ["notes"] }, actor: { id: "u_admin" } }],
      ["describe", { scope: { tags: ["notes"], surface: "mcp" } }],
      ["invoke", { capabilityId: "notes.read", input: { id: "n" }, invocationId, surface: "direct" }],
      ["invoke", { capabilityId: "notes.read", input: { id: "n" }, invocationId, idempotencyKey: "k" }],
      ["resume", { invocationId, approvalId: "apr_1", actor: { id: "u_admin" } }],
      ["reconcile", { invocationId, namespace: "other" }],
      ["invoke", { capabilityId: "notes.read", input: { id: "n" }, invocationId: "bad id" }],
      ["invoke", { capabilityId: "notes.read", input: { id: "n" }, invocationId, correlationId: "x".repeat(201) }],
    ];
    for (const [op, body] of requests) {
      const response = await post(shop.url, op, body);
      expect(response.status, `${op} ${JSON.stringify(body)}`).toBe(400);
      expect(await response.text()).not.toContain("u_admin");
    }
    expect(shop.runtimeCount()).toBe(0);
    expect(shop.audit).toEqual([]);
    expect(await shop.journal.get({ namespace: "shop", invocationId })).toBeNull();
  });

  it("S3 / D-2: unauthenticated → 401, denied or throwing authorize → 403; nothing journaled or run", async () => {
    const seen: unknown[] = [];
    shop = await startShop({
      router: {
        authorize: {
          ...allowAll,
          invoke: (a) => {
            seen.push(a);
            if (a.capabilityId === "orders.refund") throw new Error("policy store down");
            return a.capabilityId === "notes.read" ? true : ((1 as unknown) as boolean);
          },
          reconcile: () => false,
        },
      },
    });
    const anonymous = shop.client(null);
    const invocationId = newInvocationId();
    expect(await anonymous.invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId })).toMatchObject({
      status: "failed",
      error: { code: "UNAUTHENTICATED", retryable: false },
    });
    await expect(anonymous.describe()).rejects.toMatchObject({ name: "CapabilityClientError", code: "UNAUTHENTICATED", status: 401, operation: "describe" });
    const client = shop.client();
    for (const capabilityId of ["orders.refund", "orders.big"]) {
      expect(await client.invoke({ capabilityId, input: {}, invocationId })).toMatchObject({ status: "failed", error: { code: "FORBIDDEN" } });
    }
    await expect(client.reconcile({ invocationId })).rejects.toMatchObject({ code: "FORBIDDEN", status: 403, operation: "reconcile" });
    expect(await shop.journal.get({ namespace: "shop", invocationId })).toBeNull();
    expect(shop.runtimeCount()).toBe(0);
    expect(shop.effects.total()).toBe(0);
    // authorize sees server-fixed values and ids, never the raw input.
    expect(Object.keys(seen[0] as object).sort()).toEqual(["actor", "capabilityId", "context", "invocationId", "namespace", "surface"]);
    expect(seen[0]).toMatchObject({ surface: "aiSdk", namespace: "shop", context: { tenant: "t1" }, actor: { id: dana.id } });
  });

  it("S3: a throwing resolve is 401, and the thrown text never reaches the client", async () => {
    shop = await startShop({ router: { resolve: async () => { throw new Error("token db leaked-secret"); } } });
    const response = await post(shop.url, "describe", {});
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("leaked-secret");
  });

  it("S4: mounted beside other procedures on node and fetch RPCHandlers; the runtime factory runs once per request", async () => {
    quiet();
    const app = createShopApp();
    let builds = 0;
    const agent = createCapabilityRouter<RequestContext, AppContext>({
      service: app.service,
      runtime: () => (builds++, app.makeRuntime()),
      surface: "aiSdk",
      resolve: resolveFromHeaders,
      authorize: allowAll,
    });
    const appRouter = { ping: os.handler(() => "pong"), agent };

    const fetchHandler = new FetchRPCHandler(appRouter);
    const viaFetch = createHTTPCapabilityClient({
      url: "http://app.invalid/rpc",
      headers: { "x-actor": dana.id },
      fetch: async (request) => (await fetchHandler.handle(request as Request, { prefix: "/rpc", context: { headers: { "x-actor": dana.id } } })).response!,
    });
    const pinged = await fetchHandler.handle(new Request("http://app.invalid/rpc/ping", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), { prefix: "/rpc", context: { headers: {} } });
    expect(await pinged.response!.json()).toEqual({ json: "pong" });
    expect(await viaFetch.invoke({ capabilityId: "notes.read", input: { id: "f" }, invocationId: newInvocationId() })).toMatchObject({ status: "completed" });
    expect(builds).toBe(1);

    const nodeHandler = new NodeRPCHandler(appRouter);
    const server = createServer((req, res) => void nodeHandler.handle(req, res, { prefix: "/rpc", context: { headers: req.headers } }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
      const ping = await fetch(`${url}/ping`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(await ping.json()).toEqual({ json: "pong" });
      const client = createHTTPCapabilityClient({ url, headers: { "x-actor": dana.id } });
      await client.describe();
      expect(builds).toBe(2);
      await client.invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId: newInvocationId() });
      expect(builds).toBe(3);
      await client.reconcile({ invocationId: "inv-x" }); // a journal read: no runtime is built
      expect(builds).toBe(3);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("S5 / SI-8: unknown, unexposed and hidden capabilities answer byte-identically; internal errors stay generic", async () => {
    shop = await startShop({ policies: [definePolicy("hide-big", (r) => (r.capability.id === "orders.big" ? hide() : allow()), { phases: ["invocation"] })] });
    const client = shop.client();
    const answers = [];
    for (const capabilityId of ["orders.nothing", "admin.purge", "orders.big"]) {
      const r = await client.invoke({ capabilityId, input: { size: 1 }, invocationId: "inv-same" + capabilityId.length });
      answers.push(JSON.stringify({ ...r, invocationId: "·", executionId: "·" }));
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!)).toMatchObject({ status: "failed", error: { code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false } });
    const boom = await client.invoke({ capabilityId: "orders.boom", input: {}, invocationId: newInvocationId() });
    expect(boom).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    expect(JSON.stringify(boom)).not.toContain("users_table");
  });

  it("S7: a write survives a client disconnect and settles; a read is cancelled", async () => {
    shop = await startShop();
    const client = shop.client();
    const write = newInvocationId();
    const writeAbort = new AbortController();
    const disconnected = latch();
    shop.server.on("request", (_req: IncomingMessage, res: ServerResponse) => res.on("close", () => disconnected.release()));
    const gate = shop.effects.hold();
    const writing = client.invoke({ capabilityId: "orders.refund", input: { orderId: "o", cents: 1 }, invocationId: write }, { signal: writeAbort.signal });
    await shop.effects.entered();
    writeAbort.abort();
    expect(await writing).toMatchObject({ status: "outcome-unknown", reason: "aborted" });
    await disconnected.promise; // the server has seen the connection go: only then may the effect finish
    gate.release();
    await expect.poll(async () => (await client.reconcile({ invocationId: write })).state).toBe("settled");
    expect(await client.reconcile({ invocationId: write })).toMatchObject({ result: { status: "completed", output: { refunded: 1 } } });

    const read = newInvocationId();
    const readAbort = new AbortController();
    const readGate = shop.effects.hold();
    const reading = client.invoke({ capabilityId: "notes.slowRead", input: { id: "n" }, invocationId: read }, { signal: readAbort.signal });
    await shop.effects.entered();
    readAbort.abort();
    expect(await reading).toMatchObject({ status: "outcome-unknown", reason: "aborted" });
    await expect.poll(async () => (await client.reconcile({ invocationId: read })).state).toBe("settled");
    readGate.release();
    expect(await client.reconcile({ invocationId: read })).toMatchObject({ result: { status: "cancelled", error: { code: "CANCELLED" } } });
    expect(shop.audit.filter((e) => e.type === "capability.cancelled").map((e) => e.capabilityId)).toEqual(["notes.slowRead"]);
  });

  it("an expired discovery budget is 503 TIMEOUT; describe rejects with TIMEOUT", async () => {
    const slow = definePolicy("slow", () => new Promise((r) => setTimeout(() => r(allow()), 40)), { phases: ["discovery"] });
    shop = await startShop({
      policies: [slow],
      router: {
        runtime: () =>
          createAgentRuntime<AppContext>({
            governance: defineGovernance({ registry: shop!.registry, policies: [slow] }),
            defaults: { discoveryBudgetMs: 10, policyConcurrency: 1 },
            approvals: { coordinator: shop!.coordinator },
            audit: () => {},
          }),
      },
    });
    await expect(shop.client().describe()).rejects.toMatchObject({ code: "TIMEOUT", status: 503, operation: "describe" });
  });

  it("an unexpected throw after authorize is 500: outcome-unknown server-error for invoke, SERVER_ERROR for reads", async () => {
    shop = await startShop({ router: { runtime: () => { throw new Error("factory down"); } } });
    const client = shop.client();
    const invocationId = newInvocationId();
    expect(await client.invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId })).toEqual({
      protocol: 1,
      status: "outcome-unknown",
      invocationId,
      reason: "server-error",
      message: expect.any(String),
    });
    const failure = await client.describe().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CapabilityClientError);
    expect(failure).toMatchObject({ code: "SERVER_ERROR", status: 500 });
  });
});

describe("audit draining at the router (distributed.md §7, §10 DR1–DR4)", () => {
  const pendingFor = async (p: Promise<unknown>, ms = 30) => (await Promise.race([p.then(() => "settled"), new Promise((r) => setTimeout(() => r("pending"), ms))])) === "pending";

  it("DR1: with drainAudit the response waits for a slow best-effort sink; without it, it does not", async () => {
    const sink = latch();
    const entered = latch();
    shop = await startShop({
      router: { drainAudit: { timeoutMs: 5_000 } },
      audit: async (e) => {
        if (e.type === "capability.completed") {
          entered.release();
          await sink.promise;
        }
      },
    });
    const answer = shop.client().invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId: newInvocationId() });
    await entered.promise;
    expect(await pendingFor(answer)).toBe(true);
    sink.release();
    expect(await answer).toMatchObject({ status: "completed" });
    await shop.close();

    const never = latch();
    shop = await startShop({ audit: async () => never.promise });
    expect(await shop.client().invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId: newInvocationId() })).toMatchObject({ status: "completed" });
    never.release();
  });

  it("DR2: a failing drain is logged and changes no result", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    shop = await startShop({
      router: { drainAudit: { timeoutMs: 1_000 } },
      audit: async () => {
        throw new Error("sink down");
      },
    });
    expect(await shop.client().invoke({ capabilityId: "orders.refund", input: { orderId: "o", cents: 2 }, invocationId: newInvocationId() })).toMatchObject({
      status: "completed",
      output: { refunded: 2 },
    });
    expect(logged.mock.calls.some((c) => String(c[0]).includes("drainAudit failed"))).toBe(true);
  });

  it("DR3: strict mode still fails before the effect (AUDIT_UNAVAILABLE, generic on the wire)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    shop = await startShop({
      router: {
        drainAudit: { timeoutMs: 1_000 },
        runtime: (): AgentRuntime<AppContext> =>
          createAgentRuntime<AppContext>({
            governance: defineGovernance({ registry: shop!.registry }),
            approvals: { coordinator: shop!.coordinator },
            audit: { strict: true, sinks: [() => Promise.reject(new Error("sink down"))], onSinkError: () => {} },
          }),
      },
    });
    const result = await shop.client().invoke({ capabilityId: "orders.refund", input: { orderId: "o", cents: 2 }, invocationId: newInvocationId() });
    // Concealed, but still transient: nothing ran, so trying again is safe (issue 34 item 3).
    expect(result).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", retryable: true } });
    expect(shop.effects.count("orders.refund")).toBe(0);
    expect((await shop.service.get((result as { invocationId: string }).invocationId))?.outcome?.status).toBe("failed");
  });

  it("DR4: one request's drain ignores another request's runtime", async () => {
    const slowSink = latch();
    const entered = latch();
    shop = await startShop({
      router: { drainAudit: { timeoutMs: 5_000 } },
      audit: async (e) => {
        if (e.capabilityId === "notes.read" && e.type === "capability.completed") {
          entered.release();
          await slowSink.promise;
        }
      },
    });
    const client = shop.client();
    const slow = client.invoke({ capabilityId: "notes.read", input: { id: "n" }, invocationId: newInvocationId() });
    await entered.promise;
    expect(await client.invoke({ capabilityId: "orders.refund", input: { orderId: "o", cents: 3 }, invocationId: newInvocationId() })).toMatchObject({
      status: "completed",
    });
    expect(await pendingFor(slow)).toBe(true);
    slowSink.release();
    expect(await slow).toMatchObject({ status: "completed" });
  });
});
