// docs/architecture/spec/adapters.md#adapters-3-4: tools/list is the runtime's discovery for the session's identity on every call, contextual
// capabilities left out, then `filter`, registry order, the resume tool last; failures never give a partial list.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, hide, type AgentRuntime } from "@orpc-agent/core";
import { createMCPServer, type MCPServerOptions } from "../../src/v1/index.js";
import { admin, createTestApp, dana } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectInMemory, tokenFor } from "../support/in-memory.js";
import { ap } from "../support/orpc.js";

closeEverythingAfterEachTest();

const asDana = { createContext: () => ({ actor: dana, context: { tenant: "t1" } }) };

async function listed(runtime: AgentRuntime<unknown>, options: Partial<MCPServerOptions<unknown>> = {}) {
  const { client } = await connectInMemory(createMCPServer(runtime, { ...asDana, ...options }), tokenFor("t"));
  return client;
}

describe("tools/list", () => {
  it("lists the actor's discoverable capabilities in registry order, with the §3.4 shape and nothing else", async () => {
    const { runtime } = createTestApp();
    const client = await listed(runtime);
    const result = await client.listTools();
    expect(result.nextCursor).toBeUndefined();
    expect(result.tools.map((tool) => tool.name)).toEqual([
      "orders_get",
      "orders_refund",
      "notes_echo",
      "notes_count",
      "notes_whoami",
      "notes_fail",
      "notes_slow",
      "notes_sleepy",
    ]);
    const [get, refund] = result.tools;
    expect(get).toEqual({
      name: "orders_get",
      description: "Read an order.",
      inputSchema: (await runtime.describe("mcp", { actor: dana, context: { tenant: "t1" } }))[0]!.inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(get!.inputSchema).toMatchObject({ type: "object", properties: { id: { type: "string" } }, required: ["id"] });
    expect(refund!.description).toBe("Refund an order. Requires approval.");
    for (const tool of result.tools) expect(Object.keys(tool).sort()).toEqual(["annotations", "description", "inputSchema", "name"]);
  });

  it("a capability without input lists { type: \"object\" }", async () => {
    const { runtime } = createTestApp();
    const { tools } = await (await listed(runtime)).listTools();
    expect(tools.find((tool) => tool.name === "notes_whoami")?.inputSchema).toEqual({ type: "object" });
  });

  it("a contextual capability is absent from tools/list, yet callable", async () => {
    const { runtime } = createTestApp();
    const client = await listed(runtime);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("notes_bound");
    const result = await client.callTool({ name: "notes_bound", arguments: {} });
    expect(result.structuredContent).toEqual({ status: "ok", data: { bound: true } });
  });

  it("recomputes the list on every call, never caching it", async () => {
    let visible = true;
    const runtime = createAgentRuntime({
      audit: () => undefined,
      governance: defineGovernance({
        registry: createCapabilityRegistry({
          flag: ap.meta(agentMeta({ description: "Flagged.", expose: { mcp: true }, sideEffect: "read", risk: "low" })).handler(() => ({})),
        }),
        policies: [definePolicy("toggle", () => (visible ? allow() : hide()), { phases: ["discovery"] })],
      }),
    });
    const client = await listed(runtime);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["flag"]);
    visible = false;
    expect((await client.listTools()).tools).toEqual([]);
  });

  it("filter shapes the listing after governance: it cannot reveal a hidden tool, and a filtered tool stays callable", async () => {
    const { runtime } = createTestApp();
    const seen: string[] = [];
    const client = await listed(runtime, {
      filter: (descriptor) => {
        seen.push(descriptor.id);
        return descriptor.id !== "orders.get";
      },
    });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("orders_get");
    expect(names).not.toContain("admin_purge");
    // Contextual descriptors are dropped before the filter sees anything.
    expect(seen).not.toContain("notes.bound");
    expect(seen).not.toContain("admin.purge");
    const result = await client.callTool({ name: "orders_get", arguments: { id: "o1" } });
    expect(result.structuredContent).toEqual({ status: "ok", data: { id: "o1", readBy: "u_dana" } });
  });

  it("the resume tool is listed last whenever enabled, outside filter", async () => {
    const { runtime } = createTestApp();
    const client = await listed(runtime, { filter: () => false, approvals: { resumeTool: true } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["approvals_resume"]);
  });

  it("a discovery-budget TIMEOUT is a JSON-RPC error, never a partial list", async () => {
    const slowPolicy = definePolicy("slow-discovery", () => new Promise((resolve) => setTimeout(() => resolve(allow()), 40)), {
      phases: ["discovery"],
      scope: { capabilities: { ids: ["b"] } },
    });
    const cap = (description: string) =>
      ap.input(z.object({})).meta(agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low" })).handler(() => ({}));
    const runtime = createAgentRuntime({
      audit: () => undefined,
      governance: defineGovernance({ registry: createCapabilityRegistry({ a: cap("A."), b: cap("B.") }), policies: [slowPolicy] }),
      defaults: { discoveryBudgetMs: 5 },
    });
    const client = await listed(runtime);
    const error = await client.listTools().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InternalError, message: expect.stringContaining("The operation timed out.") });
  });

  it("an unexpected describe rejection is a JSON-RPC error with the generic message only", async () => {
    const { runtime } = createTestApp();
    const broken = { ...runtime, registry: runtime.registry, describe: () => Promise.reject(new Error("pool exhausted at db-7")) } as typeof runtime;
    const client = await listed(broken);
    await expect(client.listTools()).rejects.not.toThrow(/pool exhausted/);
    await expect(client.listTools()).rejects.toMatchObject({ code: ErrorCode.InternalError, message: expect.stringMatching(/: The operation failed\.$/) });
  });

  it("a throwing filter fails the listing with the generic message", async () => {
    const { runtime } = createTestApp();
    const client = await listed(runtime, {
      filter: () => {
        throw new Error("filter bug: secret");
      },
    });
    await expect(client.listTools()).rejects.not.toThrow(/filter bug/);
    await expect(client.listTools()).rejects.toMatchObject({ code: ErrorCode.InternalError, message: expect.stringMatching(/: The operation failed\.$/) });
  });

  it("different identities on one runtime see their own lists", async () => {
    const { runtime } = createTestApp();
    const danaNames = (await (await listed(runtime)).listTools()).tools.map((tool) => tool.name);
    const adminNames = (await (await listed(runtime, { createContext: () => ({ actor: admin, context: { tenant: "t1" } }) })).listTools()).tools.map((tool) => tool.name);
    expect(adminNames).toEqual([...danaNames.slice(0, 2), "admin_purge", ...danaNames.slice(2)]);
  });
});
