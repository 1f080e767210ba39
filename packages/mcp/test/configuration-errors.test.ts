// Build-time mistakes are core's branded ConfigurationError (still a TypeError), naming the function the app called.
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { createMCPHandler, serveMCPStdio } from "../src/index.js";
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
});
