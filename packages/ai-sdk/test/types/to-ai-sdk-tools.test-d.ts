// toAISDKTools's two overloads: a runtime builds local tools with its context type; a client builds remote tools and
// needs the invocation-id allocator. Each overload refuses the other's options at compile time.
import { describe, expectTypeOf, it } from "vitest";
import type { AgentRuntime } from "@orpc-agent/core";
import type { CapabilityClient } from "@orpc-agent/core/client";
import { toAISDKTools, type AISDKToolSet, type RemoteAISDKToolSet } from "../../src/index.js";

declare const runtime: AgentRuntime<{ tenant: string }>;
declare const client: CapabilityClient;
const actor = { id: "u_dana", kind: "user" } as const;

describe("toAISDKTools overloads", () => {
  it("a runtime gives local tools", () => {
    expectTypeOf(toAISDKTools(runtime, { actor, context: { tenant: "t1" } })).resolves.toEqualTypeOf<AISDKToolSet>();
  });

  it("the context must be the runtime's context type, and the actor is required", () => {
    // @ts-expect-error the runtime's context has a tenant
    void toAISDKTools(runtime, { actor, context: { wrong: true } });
    // @ts-expect-error actor is required
    void toAISDKTools(runtime, { context: { tenant: "t1" } });
  });

  it("a client gives remote tools and needs the invocation-id allocator, not an actor", () => {
    expectTypeOf(toAISDKTools(client, { invocationId: async () => "inv_1" })).resolves.toEqualTypeOf<RemoteAISDKToolSet>();
    // @ts-expect-error a remote build allocates invocation ids
    void toAISDKTools(client, {});
  });
});
