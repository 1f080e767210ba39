// createMCPHandler's options: token verification and unauthenticated mode are exclusive, and createContext returns
// the runtime's context type.
import { describe, expectTypeOf, it } from "vitest";
import type { AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler, type MCPHandler, type MCPHandlerOptions } from "../../src/index.js";

declare const runtime: AgentRuntime<{ tenant: string }>;
const createContext = () => ({ actor: { id: "u_dana", kind: "user" as const }, context: { tenant: "t1" } });
const verifyToken = () => null;

describe("createMCPHandler options", () => {
  it("takes a token verifier or allowUnauthenticated: true", () => {
    expectTypeOf(createMCPHandler(runtime, { verifyToken, createContext })).toEqualTypeOf<MCPHandler>();
    expectTypeOf(createMCPHandler(runtime, { allowUnauthenticated: true, createContext })).toEqualTypeOf<MCPHandler>();
  });

  it("refuses both, neither, and allowUnauthenticated: false", () => {
    // @ts-expect-error verifyToken and allowUnauthenticated are exclusive
    createMCPHandler(runtime, { verifyToken, allowUnauthenticated: true, createContext });
    // @ts-expect-error one of them is required
    createMCPHandler(runtime, { createContext });
    // @ts-expect-error unauthenticated mode is opted into with true only
    createMCPHandler(runtime, { allowUnauthenticated: false, createContext });
  });

  it("createContext answers with the runtime's context type", () => {
    // @ts-expect-error the runtime's context has a tenant
    createMCPHandler(runtime, { verifyToken, createContext: () => ({ actor: { id: "u", kind: "user" }, context: { other: 1 } }) });
    expectTypeOf<MCPHandlerOptions<{ tenant: string }>["createContext"]>().returns.toExtend<unknown>();
  });
});
