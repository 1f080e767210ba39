// `urlElicitation.store` (issue 48): refused at construction when it is not a store; used for everything the
// endpoint remembers for 2025-era clients, so two handlers sharing one store answer alike (two instances behind a
// load balancer); and a store that fails costs the client URL elicitation only, never the call's governance or an
// outcome it waited for. 2025-11-25 v1 SDK clients over loopback HTTP.
import { describe, expect, it } from "vitest";
import { createMCPHandler } from "../../src/http/create-handler.js";
import type { MCPHandlerOptions } from "../../src/http/handler-options.js";
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import { createInMemoryElicitationStateStore, type MCPElicitationStateStore } from "../../src/approvals/elicitation-state-store.js";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { closeAfterTest } from "../support/cleanup.js";
import { listenModern } from "../support/handler.js";
import { approvalIdOf, approvalUrl, approve, connectLegacyWithUrl, createApprovalsApp, elicitationOptions, STATE_KEYS, type ApprovalsApp } from "./approvals-app.js";

const REFUND = { name: "payments_refund", arguments: { orderId: "o1", amount: 5 } };
type Result = { structuredContent?: Record<string, unknown> };

async function urlRequired(call: Promise<unknown>): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: number; data?: { elicitations?: { url: string }[] } } | undefined;
  expect(error?.code).toBe(-32042);
  return approvalIdOf(error!.data!.elicitations![0]!.url);
}

/** A 2025-11-25 v1 SDK client declaring URL elicitation, as tok-dana, each POST sent where `route` says. */
async function connectLegacyVia(url: URL, route: (body: string) => URL): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-url", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const balanced: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", "Bearer tok-dana");
    const target = init?.method === "POST" && typeof init.body === "string" ? route(init.body) : new URL(String(input instanceof Request ? input.url : input));
    return fetch(target, { ...init, headers });
  };
  await client.connect(new LegacyHttpTransport(url, { fetch: balanced }));
  closeAfterTest(() => client.close());
  return client;
}

function serveWithStore(app: ApprovalsApp, store: MCPElicitationStateStore) {
  return listenModern((url) => createMCPHandler(app.runtime, elicitationOptions(url, { urlElicitation: { keys: STATE_KEYS, store } })));
}

/** The in-memory store with some operations replaced by ones that reject, as a database that is down would. */
function failing(names: (keyof MCPElicitationStateStore)[]): MCPElicitationStateStore & { calls: string[] } {
  const inner = createInMemoryElicitationStateStore();
  const calls: string[] = [];
  const store = { calls } as MCPElicitationStateStore & { calls: string[] };
  for (const name of ["getPending", "setPending", "deletePending", "getDeclaredCapabilities", "setDeclaredCapabilities"] as const) {
    store[name] = (async (...args: unknown[]) => {
      calls.push(name);
      if (names.includes(name)) throw new Error("the database is down");
      return (inner[name] as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as never;
  }
  return store;
}

describe("urlElicitation.store: construction", () => {
  const base: MCPHandlerOptions = { allowUnauthenticated: true, createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }) };
  const approvals = { url: (record: { id: string }) => approvalUrl(record.id) };

  it("a value that is not a store is refused with a ConfigurationError naming the seam, on both entries", () => {
    const { runtime } = createApprovalsApp();
    const partial = { ...createInMemoryElicitationStateStore(), deletePending: undefined };
    for (const store of [null, "postgres", 42, {}, partial, () => undefined]) {
      const options = { ...base, approvals, urlElicitation: { keys: STATE_KEYS, store: store as never } };
      expect(() => createMCPHandler(runtime, options)).toThrow(/createMCPHandler: options\.urlElicitation\.store must implement getPending, setPending, deletePending, getDeclaredCapabilities and setDeclaredCapabilities/);
      expect(() => createMCPHandler(runtime, options)).toThrow(expect.objectContaining({ name: "ConfigurationError" }));
      expect(() => serveMCPStdio(runtime, { createContext: base.createContext, approvals, urlElicitation: { keys: STATE_KEYS, store: store as never } })).toThrow(/urlElicitation\.store must implement/);
    }
  });

  it("a store, and no store, are accepted", () => {
    const { runtime } = createApprovalsApp();
    expect(() => createMCPHandler(runtime, { ...base, approvals, urlElicitation: { keys: STATE_KEYS, store: createInMemoryElicitationStateStore() } })).not.toThrow();
    expect(() => createMCPHandler(runtime, { ...base, approvals, urlElicitation: { keys: STATE_KEYS, store: undefined } })).not.toThrow();
  });
});

describe("urlElicitation.store: two handlers sharing one store answer alike", () => {
  it("initialize on one, the call and its retries on the other: the declared capability is found and the same approval resumed, once", async () => {
    const app = createApprovalsApp();
    const store = createInMemoryElicitationStateStore();
    const a = await serveWithStore(app, store);
    const b = await serveWithStore(app, store);
    // A load balancer in one function: the client's initialize reaches A, every later request B.
    const client = await connectLegacyVia(a.url, (body) => (body.includes('"method":"initialize"') ? a.url : b.url));
    const first = await urlRequired(client.callTool(REFUND));
    expect(await urlRequired(client.callTool(REFUND))).toBe(first);
    await approve(app, first);
    expect(((await client.callTool(REFUND)) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });

  it("without a shared store, each handler remembers only what reached it", async () => {
    const app = createApprovalsApp();
    const a = await serveWithStore(app, createInMemoryElicitationStateStore());
    const b = await serveWithStore(app, createInMemoryElicitationStateStore());
    const first = await urlRequired((await connectLegacyWithUrl(a.url, "tok-dana")).callTool(REFUND));
    const second = await urlRequired((await connectLegacyWithUrl(b.url, "tok-dana")).callTool(REFUND));
    expect(second).not.toBe(first);
  });
});

describe("urlElicitation.store: a store that fails", () => {
  it("declarations neither written nor read: initialize is still served and the call answers with the envelope", async () => {
    const app = createApprovalsApp();
    const store = failing(["setDeclaredCapabilities", "getDeclaredCapabilities"]);
    const { url } = await serveWithStore(app, store);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/), url: expect.any(String) });
    expect(store.calls).toContain("setDeclaredCapabilities");
    expect(app.executions).toEqual([]);
  });

  it("a pending retry that cannot be written: the envelope (its link leads to the approval), not a -32042 whose retry would ask again", async () => {
    const app = createApprovalsApp();
    const store = failing(["setPending"]);
    const { url } = await serveWithStore(app, store);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const result = (await client.callTool(REFUND)) as Result;
    expect(result.structuredContent).toMatchObject({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/) });
    expect(result.structuredContent!.url).toBe(approvalUrl(result.structuredContent!.approvalId as string));
    expect(store.calls).toContain("setPending");
  });

  it("a pending retry that cannot be deleted: the approved call's outcome is still delivered, and a replay never runs it twice", async () => {
    const app = createApprovalsApp();
    const store = failing(["deletePending"]);
    const { url } = await serveWithStore(app, store);
    const client = await connectLegacyWithUrl(url, "tok-dana");
    const approvalId = await urlRequired(client.callTool(REFUND));
    await approve(app, approvalId);
    expect(((await client.callTool(REFUND)) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(store.calls).toContain("deletePending");
    // The entry left behind resumes a consumed approval: answered like an unknown one, nothing runs again.
    expect(((await client.callTool(REFUND)) as Result).structuredContent).toMatchObject({ status: "error" });
    expect(app.executions).toHaveLength(1);
  });
});
