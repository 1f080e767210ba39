// docs/architecture/spec/adapters.md#adapters-2-2: the per-request build — actor check, naming, describe, contextual drop, filter, registry order.
import { describe, expect, it } from "vitest";
import { CapabilityError, definePolicy, allow, type CapabilityDescriptor, type DescribeScope } from "@orpc-agent/core";
import { toAISDKTools } from "../src/index.js";
import { admin, buildApp, context, dana } from "./support/app.js";
import { runTool } from "./support/run-tool.js";
import { spyRuntime } from "./support/spy-runtime.js";

const DANA_TOOLS = ["orders_get", "orders_refund", "support_whoami", "support_slow", "notes_add"];
const ADMIN_TOOLS = ["orders_get", "orders_refund", "support_whoami", "support_slow", "admin_purge", "notes_add"];

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

describe("toAISDKTools: the tool set", () => {
  it("without scope or filter holds every discovered capability, in registry order, under its default name", async () => {
    const { runtime } = buildApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    expect(Object.keys(tools)).toEqual(DANA_TOOLS);
  });

  it("differs between two actors: each set holds what its actor discovers, and runs as that actor", async () => {
    const { runtime } = buildApp();
    const danaTools = await toAISDKTools(runtime, { actor: dana, context });
    const adminTools = await toAISDKTools(runtime, { actor: admin, context });
    expect(Object.keys(danaTools)).toEqual(DANA_TOOLS);
    expect(Object.keys(adminTools)).toEqual(ADMIN_TOOLS);
    expect(await runTool(danaTools, "support_whoami", {})).toMatchObject({ status: "ok", data: { actor: { id: "u_dana" } } });
    expect(await runTool(adminTools, "support_whoami", {})).toMatchObject({ status: "ok", data: { actor: { id: "u_admin" } } });
  });

  it("is built afresh on every call: nothing is cached between requests", async () => {
    const { runtime, events } = buildApp();
    const first = await toAISDKTools(runtime, { actor: dana, context });
    const second = await toAISDKTools(runtime, { actor: dana, context });
    expect(second).not.toBe(first);
    expect(second.orders_get).not.toBe(first.orders_get);
    expect(events.filter((event) => event.type === "capabilities.discovered")).toHaveLength(2);
  });

  it("describes on surface aiSdk with the bound actor and context, asking for shared schemas", async () => {
    const { runtime: real } = buildApp();
    const spy = spyRuntime(real);
    await toAISDKTools(spy.runtime, { actor: dana, context });
    expect(spy.describes).toHaveLength(1);
    expect(spy.describes[0]!.surface).toBe("aiSdk");
    expect(spy.describes[0]!.options).toStrictEqual({ actor: dana, context, inputSchemas: "shared" });
  });
});

describe("toAISDKTools: filter (SI-2, UX only)", () => {
  it("narrows the set, sees only what discovery let through, and a filtered-out capability still invokes", async () => {
    const app = buildApp();
    const seen: string[] = [];
    const tools = await toAISDKTools(app.runtime, {
      actor: dana,
      context,
      filter: (descriptor) => {
        seen.push(descriptor.id);
        return descriptor.sideEffect === "read";
      },
    });
    expect(Object.keys(tools)).toEqual(["orders_get", "support_slow"]);
    // Hidden and contextual capabilities never reach the filter.
    expect(seen).toEqual(["orders.get", "orders.refund", "support.whoami", "support.slow", "notes.add"]);
    const added = await app.runtime.invoke("notes.add", { text: "filtered, not forbidden" }, { actor: dana, context, surface: "aiSdk" });
    expect(added).toMatchObject({ status: "completed", output: { added: "filtered, not forbidden" } });
  });

  it("receives the runtime's descriptors, contextual ones already dropped", async () => {
    const { runtime } = buildApp();
    const seen: CapabilityDescriptor[] = [];
    await toAISDKTools(runtime, { actor: dana, context, filter: (d) => (seen.push(d), true) });
    const described = await runtime.describe("aiSdk", { actor: dana, context });
    expect(seen).toEqual(described.filter((d) => d.contextual !== true));
  });

  it("cannot change a schema another build shows: a filter writing to one rejects the build", async () => {
    const { runtime } = buildApp();
    const before = await toAISDKTools(runtime, { actor: dana, context });
    const pristine = JSON.stringify((before.notes_add!.inputSchema as { jsonSchema: unknown }).jsonSchema);
    const writing = toAISDKTools(runtime, {
      actor: dana,
      context,
      filter: (d) => {
        (d.inputSchema.properties as Record<string, unknown>).smuggled = { type: "string" };
        return true;
      },
    });
    await expect(writing).rejects.toThrow(TypeError);
    const after = await toAISDKTools(runtime, { actor: admin, context });
    expect(after.notes_add!.inputSchema).toBe(before.notes_add!.inputSchema);
    expect(JSON.stringify((after.notes_add!.inputSchema as { jsonSchema: unknown }).jsonSchema)).toBe(pristine);
  });
});

describe("toAISDKTools: contextual capabilities (core.md §8)", () => {
  it("leaves a contextual capability out of every set, even when scope names it, yet it invokes", async () => {
    const app = buildApp();
    const described = await app.runtime.describe("aiSdk", { actor: dana, context });
    expect(described.find((d) => d.id === "support.currentTicket")).toMatchObject({ contextual: true });
    expect(Object.keys(await toAISDKTools(app.runtime, { actor: dana, context }))).not.toContain("support_currentTicket");
    const scoped = await toAISDKTools(app.runtime, { actor: dana, context, scope: { ids: ["support.currentTicket", "orders.get"] } });
    expect(Object.keys(scoped)).toEqual(["orders_get"]);
    const ticket = await app.runtime.invoke("support.currentTicket", {}, { actor: dana, context, surface: "aiSdk" });
    expect(ticket).toMatchObject({ status: "completed", output: { ticket: "T-1" } });
  });
});

describe("toAISDKTools: scope", () => {
  it("narrows the set and the discovery policies evaluated; no scope evaluates every exposed capability", async () => {
    const counting = countingPolicy();
    const app = buildApp({ policies: [counting.policy] });
    const scoped = await toAISDKTools(app.runtime, { actor: dana, context, scope: { tags: ["orders"] } });
    expect(Object.keys(scoped)).toEqual(["orders_get", "orders_refund"]);
    expect(counting.evaluated).toEqual(["orders.get", "orders.refund"]);

    counting.evaluated.length = 0;
    await toAISDKTools(app.runtime, { actor: dana, context });
    expect(counting.evaluated).toEqual(["orders.get", "orders.refund", "support.whoami", "support.slow", "support.currentTicket", "admin.purge", "notes.add"]);
  });

  it("applies before filter: the filter sees only in-scope descriptors", async () => {
    const { runtime } = buildApp();
    const seen: string[] = [];
    const tools = await toAISDKTools(runtime, {
      actor: dana,
      context,
      scope: { tags: ["orders", "notes"] },
      filter: (d) => (seen.push(d.id), d.id !== "orders.refund"),
    });
    expect(seen).toEqual(["orders.get", "orders.refund", "notes.add"]);
    expect(Object.keys(tools)).toEqual(["orders_get", "notes_add"]);
  });

  it("is forwarded verbatim, and an out-of-scope capability still invokes", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime);
    const scope: DescribeScope = { ids: ["orders.get"] };
    const tools = await toAISDKTools(spy.runtime, { actor: dana, context, scope });
    expect(spy.describes[0]!.options.scope).toBe(scope);
    expect(Object.keys(tools)).toEqual(["orders_get"]);
    const whoami = await app.runtime.invoke("support.whoami", {}, { actor: dana, context, surface: "aiSdk" });
    expect(whoami.status).toBe("completed");
  });
});

describe("toAISDKTools: build errors", () => {
  it("rejects with a TypeError unless the actor is well formed, before discovering anything", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime);
    const badActors: unknown[] = [undefined, null, "u_dana", { id: "", kind: "user" }, { id: "u_dana" }, { id: "u_dana", kind: "robot" }, { id: 7, kind: "user" }];
    for (const actor of badActors) {
      await expect(toAISDKTools(spy.runtime, { actor, context } as never), JSON.stringify(actor)).rejects.toThrow(TypeError);
    }
    await expect(toAISDKTools(spy.runtime, null as never)).rejects.toThrow(TypeError);
    expect(spy.describes).toEqual([]);
  });

  it("rejects with a TypeError on a malformed filter, toolNaming, signal or correlationId", async () => {
    const { runtime } = buildApp();
    const bad = [{ filter: "reads" }, { toolNaming: { "orders.get": "x" } }, { signal: { aborted: false } }, { correlationId: "" }, { correlationId: 42 }];
    for (const extra of bad) {
      await expect(toAISDKTools(runtime, { actor: dana, context, ...extra } as never), JSON.stringify(extra)).rejects.toThrow(TypeError);
    }
  });

  it("rejects a target that is neither a runtime nor a CapabilityClient (the remote overload: remote-tools.test.ts)", async () => {
    const halfClient = { describe: async () => [], invoke: async () => ({}) };
    await expect(toAISDKTools(halfClient as never, { actor: dana, context })).rejects.toThrow(/AgentRuntime.*CapabilityClient/);
  });

  it("propagates a describe rejection such as the discovery-budget TIMEOUT: never a partial set", async () => {
    const stalled = definePolicy("stalled-discovery", () => new Promise<never>(() => {}), {
      phases: ["discovery"],
      scope: { capabilities: { ids: ["notes.add"] } },
    });
    const app = buildApp({ policies: [stalled], runtime: { defaults: { discoveryBudgetMs: 5 } } });
    const rejection = await toAISDKTools(app.runtime, { actor: dana, context }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(rejection).toBeInstanceOf(CapabilityError);
    expect(rejection).toMatchObject({ code: "TIMEOUT" });
  });
});
