// Build-time mistakes are core's branded ConfigurationError (still a TypeError), naming the function the app called.
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { createMCPHandler, serveMCPStdio } from "../src/index.js";
import { createMCPServer } from "../src/v1/index.js";
import { createTestApp } from "./support/app.js";

const createContext = () => null;

describe("createMCPHandler and serveMCPStdio configuration errors", () => {
  it("both authentication modes at once, a colliding toolNaming and a bad body limit are ConfigurationErrors", () => {
    const { runtime } = createTestApp();
    const attempts = [
      () => createMCPHandler(runtime, { verifyToken: () => null, allowUnauthenticated: true, createContext } as never),
      () => createMCPHandler(runtime, { allowUnauthenticated: true, createContext, toolNaming: () => "same" }),
      () => createMCPHandler(runtime, { allowUnauthenticated: true, createContext, maxBodyBytes: -1 }),
      () => serveMCPStdio(runtime, { createContext, toolNaming: () => "same" }),
    ];
    for (const attempt of attempts) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect(thrown).toBeInstanceOf(TypeError);
    }
    expect(() => createMCPHandler(runtime, { allowUnauthenticated: true, createContext, toolNaming: () => "same" })).toThrow(/^createMCPHandler: tool name collision/);
  });

  // Every governance option both entries share, and the options only the v2 entries take: each message names the
  // function the application called, never the deprecated v1 entry's name.
  const secret = "configuration-errors-test-secret-0123456789";
  const badOptions: [string, Record<string, unknown>][] = [
    ["no createContext", {}],
    ["createContext not a function", { createContext: "dana" }],
    ["filter", { createContext, filter: "x" }],
    ["toolNaming", { createContext, toolNaming: 1 }],
    ["annotations", { createContext, annotations: "all" }],
    ["serverInfo", { createContext, serverInfo: { name: "x" } }],
    ["approvals", { createContext, approvals: "yes" }],
    ["approvals.url", { createContext, approvals: { url: "https://example.test" } }],
    ["approvals.resumeTool", { createContext, approvals: { resumeTool: "yes" } }],
    ["approvals.resumeTool.name", { createContext, approvals: { resumeTool: { name: "" } } }],
    ["urlElicitation without approvals.url", { createContext, urlElicitation: { keys: [{ id: "k1", secret }] } }],
    ["urlElicitation.keys", { createContext, approvals: { url: () => undefined }, urlElicitation: { keys: [] } }],
    ["urlElicitation.decisions", { createContext, approvals: { url: () => undefined }, urlElicitation: { keys: [{ id: "k1", secret }], decisions: "yes" } }],
    ["traceContext", { createContext, traceContext: {} }],
  ];
  const entries = {
    createMCPHandler: (runtime: never, options: Record<string, unknown>) => createMCPHandler(runtime, { allowUnauthenticated: true, ...options } as never),
    serveMCPStdio: (runtime: never, options: Record<string, unknown>) => serveMCPStdio(runtime, options as never),
  };

  it.each(Object.keys(entries))("%s names itself in every governance option refusal", (entry) => {
    const { runtime } = createTestApp();
    const build = entries[entry as keyof typeof entries];
    for (const [what, options] of badOptions) {
      let thrown: unknown;
      try {
        build(runtime as never, options);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown), what).toBe(true);
      expect((thrown as Error).message, what).toMatch(new RegExp(`^${entry}[:(]`));
      expect((thrown as Error).message, what).not.toContain("createMCPServer");
    }
    const withoutOptions = entry === "createMCPHandler" ? () => createMCPHandler(runtime, undefined as never) : () => serveMCPStdio(runtime, undefined as never);
    expect(withoutOptions).toThrow(new RegExp(`^${entry}\\(runtime, options\\): options must be an object`));
  });

  it("the deprecated createMCPServer keeps its own name", () => {
    const { runtime } = createTestApp();
    expect(() => createMCPServer(runtime, {} as never)).toThrow(/^createMCPServer: options\.createContext is required/);
    expect(() => createMCPServer(runtime, { createContext, filter: "x" } as never)).toThrow(/^createMCPServer: options\.filter must be a function/);
  });
});
