// docs/architecture/spec/adapters.md#adapters-1-4, docs/architecture/spec/adapters.md#adapters-2-7 (10): names, collisions over the whole aiSdk-exposed registry, validity, resolution.
import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, createCapabilityRegistry, type AgentMeta } from "@orpc-agent/core";
import { toAISDKTools } from "../src/index.js";
import { toolNameMapFor } from "../src/tool-names.js";
import { buildApp, context, dana } from "./support/app.js";
import { runTool } from "./support/run-tool.js";

/** Collides `orders.get` with `admin.purge`, which is hidden from dana. */
const collideWithHidden = (id: string) => (id === "orders.get" || id === "admin.purge" ? "shared_name" : id.replaceAll(".", "__"));

describe("tool names", () => {
  it("default to defaultToolName; toolNaming replaces it; a meta toolName beats both", async () => {
    const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
    const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "d", expose: { aiSdk: true }, sideEffect: "read", risk: "low", ...extra });
    const registry = createCapabilityRegistry({
      a: { plain: ap.meta(agentMeta(meta())).handler(() => 1) },
      b: { named: ap.meta(agentMeta(meta({ adapters: { aiSdk: { toolName: "meta_name" }, mcp: { toolName: "mcp_name" } } }))).handler(() => 2) },
    });
    expect(["a.plain", "b.named"].map(toolNameMapFor(registry).nameOf)).toEqual(["a_plain", "meta_name"]);
    const upper = toolNameMapFor(registry, (id) => id.toUpperCase().replace(".", "-"));
    expect(["a.plain", "b.named"].map(upper.nameOf)).toEqual(["A-PLAIN", "meta_name"]);
  });

  it("toolNaming names the tools of a build, and the tools work under those names", async () => {
    const { runtime } = buildApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context, toolNaming: (id) => `app-${id.replaceAll(".", "-")}` });
    expect(Object.keys(tools)).toEqual(["app-orders-get", "app-orders-refund", "app-support-whoami", "app-support-slow", "app-notes-add"]);
  });

  it("a colliding toolNaming throws at build, naming both ids, even when one of them is hidden from the actor", async () => {
    const { runtime } = buildApp();
    const rejection = toAISDKTools(runtime, { actor: dana, context, toolNaming: collideWithHidden });
    await expect(rejection).rejects.toThrow(/collision/i);
    await expect(rejection).rejects.toThrow(/orders\.get.*admin\.purge/);
  });

  it("a capability not exposed on aiSdk never collides", async () => {
    const { runtime } = buildApp();
    // internal.reindex (direct only) takes the name orders.get has on aiSdk.
    const toolNaming = (id: string) => (id === "internal.reindex" ? "orders_get" : id.replaceAll(".", "_"));
    const tools = await toAISDKTools(runtime, { actor: dana, context, toolNaming });
    expect(Object.keys(tools)).toContain("orders_get");
    expect(await runTool(tools, "orders_get", { orderId: "o1" })).toMatchObject({ status: "ok" });
  });

  it("an invalid name of an exposed capability throws at build; of an unexposed one, it does not", async () => {
    const { runtime } = buildApp();
    const invalid = ["has space", "", "dotted.name", "x".repeat(65), "ünïcode", 42, undefined];
    for (const name of invalid) {
      const toolNaming = (id: string) => (id === "notes.add" ? name : id.replaceAll(".", "_")) as string;
      await expect(toAISDKTools(runtime, { actor: dana, context, toolNaming }), String(name)).rejects.toThrow(/notes\.add.*invalid/);
    }
    const longest = "x".repeat(64);
    const valid = await toAISDKTools(runtime, { actor: dana, context, toolNaming: (id) => (id === "notes.add" ? longest : id.replaceAll(".", "_")) });
    expect(Object.keys(valid)).toContain(longest);
    const unexposedInvalid = (id: string) => (id === "internal.reindex" ? "not a name" : id.replaceAll(".", "_"));
    await expect(toAISDKTools(runtime, { actor: dana, context, toolNaming: unexposedInvalid })).resolves.toBeDefined();
  });

  it("a throwing toolNaming fails the build only for exposed capabilities", async () => {
    const { runtime } = buildApp();
    const throwsFor = (target: string) => (id: string) => {
      if (id === target) throw new Error(`no name for ${id}`);
      return id.replaceAll(".", "_");
    };
    await expect(toAISDKTools(runtime, { actor: dana, context, toolNaming: throwsFor("orders.get") })).rejects.toThrow("no name for orders.get");
    await expect(toAISDKTools(runtime, { actor: dana, context, toolNaming: throwsFor("internal.reindex") })).resolves.toBeDefined();
  });
});

describe("toolNameMapFor: resolving protocol names (§1.4)", () => {
  it("resolves an exposed name to its id, and an unexposed capability's name when exactly one holds it", () => {
    const { registry } = buildApp();
    const names = toolNameMapFor(registry);
    expect(names.resolve("orders_get")).toBe("orders.get");
    expect(names.resolve("internal_reindex")).toBe("internal.reindex");
    expect(names.nameOf("internal.reindex")).toBeUndefined();
  });

  it("forwards an unclaimed name verbatim, and leaves a name two unexposed capabilities share unresolved", () => {
    const { registry } = buildApp();
    expect(toolNameMapFor(registry).resolve("orders_delete")).toBe("orders_delete");
    const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
    const directOnly: AgentMeta = { description: "d", expose: { direct: true }, sideEffect: "read", risk: "low" };
    const twoUnexposed = createCapabilityRegistry({
      x: { one: ap.meta(agentMeta(directOnly)).handler(() => 1), two: ap.meta(agentMeta(directOnly)).handler(() => 2) },
    });
    const shared = toolNameMapFor(twoUnexposed, () => "shared");
    expect(shared.resolve("shared")).toBe("shared");
  });

  it("refuses a raw registry id that is addressed by a different wire name: a capability answers only to its name", () => {
    const { registry } = buildApp();
    const names = toolNameMapFor(registry);
    expect(names.resolve("orders.get")).toBeUndefined();
    expect(names.resolve("internal.reindex")).toBeUndefined();
  });
});
