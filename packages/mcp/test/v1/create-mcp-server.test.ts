import { readFileSync } from "node:fs";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta, type AgentMetaDeclaration } from "@orpc-agent/core";
import { createMCPServer } from "../../src/v1/index.js";
import { dana, createTestApp } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectInMemory, tokenFor } from "../support/in-memory.js";
import { ap } from "../support/orpc.js";

closeEverythingAfterEachTest();

const createContext = () => ({ actor: dana, context: { tenant: "t1" } });

function runtimeOf(defs: Parameters<typeof createCapabilityRegistry>[0]) {
  return createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry(defs) }), audit: () => undefined });
}

function meta(overrides: Partial<AgentMeta> = {}): AgentMetaDeclaration {
  return agentMeta({ description: "A capability.", expose: { mcp: true }, sideEffect: "read", risk: "low", ...overrides });
}

describe("createMCPServer construction", () => {
  it("throws a TypeError without createContext, naming what to pass", () => {
    const { runtime } = createTestApp();
    expect(() => createMCPServer(runtime, {} as never)).toThrow(TypeError);
    expect(() => createMCPServer(runtime, {} as never)).toThrow(/createContext is required/);
    expect(() => createMCPServer(runtime, undefined as never)).toThrow(TypeError);
  });

  it("throws a TypeError for malformed options", () => {
    const { runtime } = createTestApp();
    expect(() => createMCPServer(runtime, { createContext, annotations: "all" as never })).toThrow(/annotations/);
    expect(() => createMCPServer(runtime, { createContext, filter: "x" as never })).toThrow(/filter/);
    expect(() => createMCPServer(runtime, { createContext, serverInfo: { name: "x" } as never })).toThrow(/serverInfo/);
    expect(() => createMCPServer(runtime, { createContext, approvals: { resumeTool: { name: "" } } })).toThrow(/resumeTool.name/);
  });

  it("a capability exposed to mcp with a non-object input root fails construction", () => {
    const runtime = runtimeOf({ text: { shout: ap.input(z.string()).meta(meta()).handler(({ input }) => input) } });
    expect(() => createMCPServer(runtime, { createContext })).toThrow(TypeError);
    expect(() => createMCPServer(runtime, { createContext })).toThrow(/"text\.shout".*non-object root/);
  });

  it("a non-object input root is fine when the capability is not exposed to mcp", () => {
    const runtime = runtimeOf({ text: { shout: ap.input(z.string()).meta(meta({ expose: { direct: true } })).handler(({ input }) => input) } });
    expect(() => createMCPServer(runtime, { createContext })).not.toThrow();
  });

  it("a toolNaming collision throws, naming both ids; never a silent rename", () => {
    const runtime = runtimeOf({
      a: { one: ap.meta(meta()).handler(() => 1) },
      b: { two: ap.meta(meta()).handler(() => 2) },
    });
    expect(() => createMCPServer(runtime, { createContext, toolNaming: () => "same" })).toThrow(/collision.*"a\.one".*"b\.two"/);
  });

  it("capabilities not exposed to mcp never collide", () => {
    const runtime = runtimeOf({
      a: { one: ap.meta(meta()).handler(() => 1) },
      b: { two: ap.meta(meta({ expose: { direct: true } })).handler(() => 2) },
    });
    expect(() => createMCPServer(runtime, { createContext, toolNaming: () => "same" })).not.toThrow();
  });

  it("meta.adapters.mcp.toolName beats toolNaming, which beats the default name", async () => {
    const runtime = runtimeOf({
      a: {
        named: ap.meta(meta({ adapters: { mcp: { toolName: "from_meta" } } })).handler(() => 1),
        plain: ap.meta(meta()).handler(() => 2),
      },
    });
    const listed = async (toolNaming?: (id: string) => string) => {
      const { client } = await connectInMemory(createMCPServer(runtime, { createContext, toolNaming }));
      return (await client.listTools()).tools.map((tool) => tool.name);
    };
    expect(await listed()).toEqual(["from_meta", "a_plain"]);
    expect(await listed((id) => `x-${id}`)).toEqual(["from_meta", "x-a.plain"]);
  });

  it("an invalid MCP tool name throws at construction", () => {
    const runtime = runtimeOf({ a: { one: ap.meta(meta()).handler(() => 1) } });
    expect(() => createMCPServer(runtime, { createContext, toolNaming: () => "has space" })).toThrow(/the tool name "has space" of "a\.one" is invalid: MCP tool names/);
    expect(() => createMCPServer(runtime, { createContext, toolNaming: () => "x".repeat(129) })).toThrow(TypeError);
    expect(() => createMCPServer(runtime, { createContext, toolNaming: () => "x".repeat(128) })).not.toThrow();
  });
});

describe("server identity and capabilities", () => {
  it("serverInfo defaults to orpc-agent at this package's version, and tools.listChanged is false", async () => {
    const { runtime } = createTestApp();
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext }), tokenFor("t"));
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(client.getServerVersion()).toEqual({ name: "orpc-agent", version });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    // Nothing else is served (docs/architecture/spec/adapters.md#adapters-3-8).
    expect(Object.keys(client.getServerCapabilities() ?? {})).toEqual(["tools"]);
  });

  it("a custom serverInfo is announced as given", async () => {
    const { runtime } = createTestApp();
    const { client } = await connectInMemory(createMCPServer(runtime, { createContext, serverInfo: { name: "shop", version: "9.9.9" } }));
    expect(client.getServerVersion()).toEqual({ name: "shop", version: "9.9.9" });
  });

  it("no listed tool approves, decides or rejects, even with every approval option on", async () => {
    const { runtime } = createTestApp();
    const mcp = createMCPServer(runtime, { createContext, approvals: { resumeTool: true, url: () => "https://app.example/approvals" } });
    const { client } = await connectInMemory(mcp);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.length).toBeGreaterThan(3);
    for (const name of names) expect(name).not.toMatch(/approve|decide|reject/i);
  });
});
