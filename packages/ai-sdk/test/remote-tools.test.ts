// docs/architecture/spec/adapters.md#adapters-2-6: the remote overload's build — overload discrimination, options, describe, server-resolved
// names, the contextual drop, filter and scope. The server is a real capability router in this process.
import { describe, expect, it } from "vitest";
import { allow, definePolicy, type CapabilityDescriptor } from "@orpc-agent/core";
import { CapabilityClientError } from "@orpc-agent/core/http";
import { toAISDKTools } from "../src/index.js";
import { admin, buildApp, context, dana, priya } from "./support/app.js";
import { createTestRouter, createTestService, inProcessClient, newInvocationId } from "./support/remote-server.js";
import { runTool } from "./support/run-tool.js";
import { describeResponse, remoteDescriptor, spyClient } from "./support/spy-client.js";

const DANA_TOOLS = ["orders_get", "orders_refund", "support_whoami", "support_slow", "notes_add"];
const ADMIN_TOOLS = ["orders_get", "orders_refund", "support_whoami", "support_slow", "admin_purge", "notes_add"];
const invocationId = async () => newInvocationId();

/** The support app behind a capability router; `clientFor` authenticates as the actor given. */
function remoteApp(o: Parameters<typeof buildApp>[0] & { toolNaming?: (id: string) => string } = {}) {
  const app = buildApp(o);
  const service = createTestService(o.toolNaming ? { aiSdk: o.toolNaming } : undefined);
  const { router } = createTestRouter({ runtime: app.runtime, appContext: context, actors: [dana, priya, admin], service });
  return { ...app, service, clientFor: (actor: typeof dana) => inProcessClient(router, actor) };
}

/** Records which capabilities discovery policies were evaluated for. */
function countingPolicy() {
  const evaluated: string[] = [];
  const policy = definePolicy(
    "count-discovery",
    (req) => {
      evaluated.push(req.capability.id);
      return allow();
    },
    { phases: ["discovery"] },
  );
  return { policy, evaluated };
}

describe("toAISDKTools(client): the tool set", () => {
  it("holds what the server lets the client's actor discover, in registry order, under the server's aiSdk names", async () => {
    const app = remoteApp();
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId });
    expect(Object.keys(tools)).toEqual(DANA_TOOLS);
  });

  it("differs between two authenticated clients: each set holds what its actor discovers, and runs as that actor", async () => {
    const app = remoteApp();
    const danaTools = await toAISDKTools(app.clientFor(dana), { invocationId });
    const adminTools = await toAISDKTools(app.clientFor(admin), { invocationId });
    expect(Object.keys(danaTools)).toEqual(DANA_TOOLS);
    expect(Object.keys(adminTools)).toEqual(ADMIN_TOOLS);
    expect(await runTool(danaTools, "support_whoami", {})).toMatchObject({ status: "ok", data: { actor: { id: "u_dana" }, tenant: "acme" } });
    expect(await runTool(adminTools, "support_whoami", {})).toMatchObject({ status: "ok", data: { actor: { id: "u_admin" } } });
  });

  it("uses each descriptor's server-resolved toolNames.aiSdk: the service's toolNaming, never a client-side rule", async () => {
    const app = remoteApp({ toolNaming: (id) => `svc_${id.replace(".", "__")}` });
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId });
    expect(Object.keys(tools)).toEqual(DANA_TOOLS.map((name) => `svc_${name.replace("_", "__")}`));
    expect(await runTool(tools, "svc_orders__get", { orderId: "o1" })).toMatchObject({ status: "ok", data: { orderId: "o1" } });
  });

  it("shows each descriptor as the local overload does: verbatim description, approval suffix, the descriptor's schema, no SDK approval or output mapping", async () => {
    const app = remoteApp();
    const { descriptors } = await app.clientFor(dana).describe();
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId });
    for (const [name, tool] of Object.entries(tools)) {
      const descriptor = descriptors.find((d) => d.toolNames.aiSdk === name)!;
      expect(tool.description).toBe(descriptor.requiresApproval ? `${descriptor.description} Requires approval.` : descriptor.description);
      expect((tool.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(descriptor.inputSchema);
      expect((tool.inputSchema as { validate?: unknown }).validate).toBeUndefined();
      expect((tool as { needsApproval?: unknown }).needsApproval).toBeUndefined();
      expect((tool as { toModelOutput?: unknown }).toModelOutput).toBeUndefined();
    }
    expect(tools.orders_refund!.description).toBe("Refund an order. Requires approval.");
  });

  it("drops contextual descriptors, which the server still returns and still runs", async () => {
    const app = remoteApp();
    const client = app.clientFor(dana);
    const { descriptors } = await client.describe();
    expect(descriptors.find((d) => d.id === "support.currentTicket")).toMatchObject({ contextual: true });
    const tools = await toAISDKTools(client, { invocationId });
    expect(Object.keys(tools)).not.toContain("support_currentTicket");
    const result = await client.invoke({ capabilityId: "support.currentTicket", input: {}, invocationId: newInvocationId() });
    expect(result).toMatchObject({ status: "completed", output: { ticket: "T-1" } });
  });

  it("applies filter after the contextual drop, to the descriptors themselves; a filtered-out capability still runs (SI-2)", async () => {
    const app = remoteApp();
    const seen: string[] = [];
    const filter = (descriptor: CapabilityDescriptor) => {
      seen.push(descriptor.id);
      return descriptor.sideEffect === "read";
    };
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId, filter });
    expect(Object.keys(tools)).toEqual(["orders_get", "support_slow"]);
    expect(seen).toEqual(["orders.get", "orders.refund", "support.whoami", "support.slow", "notes.add"]);
    const added = await app.clientFor(dana).invoke({ capabilityId: "notes.add", input: { text: "hi" }, invocationId: newInvocationId() });
    expect(added).toMatchObject({ status: "completed", output: { added: "hi" } });
  });

  it("forwards scope verbatim to describe: it narrows the set and the discovery policies evaluated; filter applies after; out of scope still runs", async () => {
    const counting = countingPolicy();
    const app = remoteApp({ policies: [counting.policy] });
    const spy = spyClient(app.clientFor(dana));
    const scope = { tags: ["orders"], ids: ["notes.add"] };
    const tools = await toAISDKTools(spy.client, { invocationId, scope, filter: (d) => d.id !== "orders.get" });
    expect(spy.describes.map((call) => call.request)).toEqual([{ scope }]);
    expect(spy.describes[0]!.request!.scope).toBe(scope);
    expect(Object.keys(tools)).toEqual(["orders_refund", "notes_add"]);
    expect(counting.evaluated).toEqual(["orders.get", "orders.refund", "notes.add"]);

    counting.evaluated.length = 0;
    await toAISDKTools(spy.client, { invocationId });
    expect(spy.describes[1]!.request).toBeUndefined();
    expect(counting.evaluated).toHaveLength(7); // every capability exposed on aiSdk, contextual and admin-only included

    const whoami = await app.clientFor(dana).invoke({ capabilityId: "support.whoami", input: {}, invocationId: newInvocationId() });
    expect(whoami).toMatchObject({ status: "completed", output: { actor: { id: "u_dana" } } });
  });

  it("sends describe nothing but the scope, with the option-level signal; the server fixes actor, context and surface", async () => {
    const app = remoteApp();
    const spy = spyClient(app.clientFor(dana));
    const signal = new AbortController().signal;
    await toAISDKTools(spy.client, { invocationId, signal });
    expect(spy.describes).toHaveLength(1);
    expect(spy.describes[0]!.request).toBeUndefined();
    expect(spy.describes[0]!.options).toStrictEqual({ signal });
    await toAISDKTools(spy.client, { invocationId });
    expect(spy.describes[1]!.options).toBeUndefined();
  });

  it("is built afresh on every call: nothing is cached between requests", async () => {
    const app = remoteApp();
    const spy = spyClient(app.clientFor(dana));
    const first = await toAISDKTools(spy.client, { invocationId });
    const second = await toAISDKTools(spy.client, { invocationId });
    expect(second).not.toBe(first);
    expect(second.orders_get).not.toBe(first.orders_get);
    expect(spy.describes).toHaveLength(2);
  });
});

describe("toAISDKTools(client): build failures", () => {
  it("throws on two descriptors with one aiSdk name, naming both ids, even when one is contextual or filtered out", async () => {
    const cases = [
      [remoteDescriptor("a.one", { toolNames: { aiSdk: "same", mcp: "a" } }), remoteDescriptor("b.two", { toolNames: { aiSdk: "same", mcp: "b" } })],
      [remoteDescriptor("a.one", { toolNames: { aiSdk: "same", mcp: "a" } }), remoteDescriptor("b.two", { toolNames: { aiSdk: "same", mcp: "b" }, contextual: true })],
    ];
    for (const descriptors of cases) {
      const spy = spyClient(undefined, { describe: async () => describeResponse(descriptors) });
      const build = toAISDKTools(spy.client, { invocationId, filter: (d) => d.id === "a.one" });
      await expect(build).rejects.toThrow(/collision/i);
      await expect(build).rejects.toThrow(/a\.one.*b\.two/);
      expect(spy.invokes).toEqual([]);
    }
  });

  it("throws on an invalid or missing aiSdk name", async () => {
    const bad = [
      remoteDescriptor("a.one", { toolNames: { aiSdk: "has.dot", mcp: "a" } }),
      remoteDescriptor("a.one", { toolNames: { aiSdk: "x".repeat(65), mcp: "a" } }),
      remoteDescriptor("a.one", { toolNames: { aiSdk: "", mcp: "a" } }),
      { ...remoteDescriptor("a.one"), toolNames: undefined } as never,
    ];
    for (const descriptor of bad) {
      const spy = spyClient(undefined, { describe: async () => describeResponse([descriptor]) });
      await expect(toAISDKTools(spy.client, { invocationId }), JSON.stringify(descriptor)).rejects.toThrow(/a\.one.*invalid|must match/);
    }
    const fine = spyClient(undefined, { describe: async () => describeResponse([remoteDescriptor("a.one", { toolNames: { aiSdk: "A-b_9", mcp: "a" } })]) });
    expect(Object.keys(await toAISDKTools(fine.client, { invocationId }))).toEqual(["A-b_9"]);
  });

  it("propagates a describe rejection as is: never a partial set", async () => {
    const app = remoteApp();
    const { router } = createTestRouter({ runtime: app.runtime, appContext: context, actors: [] });
    const unauthenticated = inProcessClient(router, dana);
    const rejection = await toAISDKTools(unauthenticated, { invocationId }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(rejection).toBeInstanceOf(CapabilityClientError);
    expect(rejection).toMatchObject({ operation: "describe", code: "UNAUTHENTICATED" });

    const failure = new Error("describe failed");
    const spy = spyClient(undefined, { describe: () => Promise.reject(failure) });
    await expect(toAISDKTools(spy.client, { invocationId })).rejects.toBe(failure);
  });

  it("rejects with a TypeError when invocationId is missing or not a function, describing nothing", async () => {
    const spy = spyClient(remoteApp().clientFor(dana));
    for (const options of [{}, { invocationId: "inv-1" }, { invocationId: undefined }, null, "options"]) {
      await expect(toAISDKTools(spy.client, options as never), JSON.stringify(options)).rejects.toThrow(TypeError);
    }
    await expect(toAISDKTools(spy.client, {} as never)).rejects.toThrow(/invocationId is required/);
    expect(spy.describes).toEqual([]);
  });

  it("rejects with a TypeError the options the server fixes (actor, context, surface, toolNaming) and malformed filter, signal or correlationId", async () => {
    const spy = spyClient(remoteApp().clientFor(dana));
    const bad = [
      { actor: dana },
      { context },
      { surface: "mcp" },
      { toolNaming: (id: string) => id },
      { filter: "reads" },
      { signal: { aborted: false } },
      { correlationId: "" },
      { correlationId: 42 },
      { correlationId: "x".repeat(201) },
      { correlationId: "line\nbreak" },
    ];
    for (const extra of bad) {
      await expect(toAISDKTools(spy.client, { invocationId, ...extra } as never), JSON.stringify(extra)).rejects.toThrow(TypeError);
    }
    await expect(toAISDKTools(spy.client, { invocationId, actor: dana } as never)).rejects.toThrow(/server fixes/);
    expect(spy.describes).toEqual([]);
    expect(Object.keys(await toAISDKTools(spy.client, { invocationId, correlationId: "x".repeat(200) }))).toEqual(DANA_TOOLS);
  });

  it("tells a runtime from a client by its registry member; anything else is a TypeError", async () => {
    const app = remoteApp();
    // A runtime with remote options takes the local path, which wants an actor.
    await expect(toAISDKTools(app.runtime, { invocationId } as never)).rejects.toThrow(/options\.actor/);
    // A client carrying a registry member is taken for a runtime (docs/architecture/spec/adapters.md#adapters-2-6).
    const spy = spyClient(app.clientFor(dana));
    await expect(toAISDKTools(Object.assign(spy.client, { registry: app.registry }) as never, { invocationId } as never)).rejects.toThrow(TypeError);
    expect(spy.describes).toEqual([]);
    for (const target of [null, undefined, {}, { describe: async () => ({}), invoke: async () => ({}) }, "client"]) {
      await expect(toAISDKTools(target as never, { invocationId }), String(target)).rejects.toThrow(/AgentRuntime.*CapabilityClient/);
    }
  });

  it("types: a client takes only the remote options and a runtime only the local ones", () => {
    const app = remoteApp();
    const client = app.clientFor(dana);
    // Never called: tsc checks these lines (typecheck:ai-vN), the test only keeps them in the suite.
    const calls = [
      () => toAISDKTools(client, { invocationId, scope: { tags: ["orders"] }, correlationId: "c" }),
      // @ts-expect-error the allocator is required
      () => toAISDKTools(client, {}),
      // @ts-expect-error the server fixes the actor
      () => toAISDKTools(client, { invocationId, actor: dana }),
      // @ts-expect-error the server fixes the tool names
      () => toAISDKTools(client, { invocationId, toolNaming: (id: string) => id }),
      // @ts-expect-error a runtime needs an actor and a context
      () => toAISDKTools(app.runtime, { invocationId }),
    ];
    expect(calls).toHaveLength(5);
  });

  it("rejects a describe answer without descriptors", async () => {
    const spy = spyClient(undefined, { describe: async () => ({}) as never });
    await expect(toAISDKTools(spy.client, { invocationId })).rejects.toThrow(/descriptors/);
  });
});
