// The shared adapter conformance suite (docs/architecture/spec/adapters.md#adapters-5-1, "mcp" row) against the v2 endpoint, run twice on one
// loopback URL: the v2 SDK Client (2026-07-28) and the v1 SDK Client (2025-11-25). The suite is unchanged; an
// aborted call rejects in both clients, so `callTool` reports CANCELLED and the suite checks the abort server-side.
import { createAgentRuntime, type Actor, type AgentRuntime } from "@orpc-agent/core";
import {
  collidingToolNaming,
  describeAdapterConformance,
  type AdapterEnvelope,
  type ConformanceFixture,
  type ConformanceHarness,
} from "../../../test-fixtures/conformance.js";
import { createMCPHandler } from "../src/http/create-handler.js";
import type { MCPHandlerOptions } from "../src/http/handler-options.js";
import { closeEverythingAfterEachTest } from "./support/cleanup.js";
import { ERAS, listenModern, nowInSeconds, type EraClient } from "./support/handler.js";

closeEverythingAfterEachTest();

const CANCELLED: AdapterEnvelope = { status: "error", error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false } };

function fixtureRuntime(fixture: ConformanceFixture) {
  const runtime = createAgentRuntime({ governance: fixture.governance, approvals: { coordinator: fixture.approvals }, audit: fixture.audit });
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  };
  const tracked: AgentRuntime = {
    governance: runtime.governance,
    registry: runtime.registry,
    approvals: runtime.approvals,
    grants: runtime.grants,
    describe: (surface, options) => runtime.describe(surface, options),
    invoke: (id, input, options) => track(runtime.invoke(id, input, options)),
    resume: (id, options) => track(runtime.resume(id, options)),
    drainAudit: (options) => runtime.drainAudit(options),
  };
  const settled = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    await runtime.drainAudit();
  };
  return { runtime: tracked, settled };
}

/**
 * The token of each fixture actor is its id, verified for this endpoint's URL; createContext maps it back. The suite
 * models a user acting directly (audit actor exactly { id, kind }), so the tokens name no OAuth client (no `via`).
 */
function optionsFor(url: URL): MCPHandlerOptions {
  return {
    resource: url,
    approvals: { resumeTool: true },
    verifyToken: (token) => (token.startsWith("u_") ? { token, clientId: "", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
    createContext: ({ authInfo }) => (authInfo?.token.startsWith("u_") ? { actor: { id: authInfo.token, kind: "user" }, context: {} } : null),
  };
}

type StructuredResult = { structuredContent?: unknown };

for (const { era, connect } of ERAS) {
  describeAdapterConformance(`mcp v2 endpoint, ${era}, Streamable HTTP (loopback)`, async (fixture): Promise<ConformanceHarness> => {
    const tracked = fixtureRuntime(fixture);
    const { url } = await listenModern((endpoint) => createMCPHandler(tracked.runtime, optionsFor(endpoint)));
    const clients = new Map<string, Promise<EraClient>>();
    const clientFor = (actor: Actor) => {
      let client = clients.get(actor.id);
      if (client === undefined) clients.set(actor.id, (client = connect(url, actor.id)));
      return client;
    };
    return {
      surface: "mcp",
      naming: "mapped",
      scopes: false,
      async listTools(actor) {
        const { tools } = (await (await clientFor(actor)).listTools()) as { tools: { name: string; description?: string; inputSchema: unknown }[] };
        return tools.map((tool) => ({ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema }));
      },
      async callTool(actor, toolName, rawArgs, o) {
        const client = await clientFor(actor);
        try {
          const result = (await client.callTool({ name: toolName, arguments: rawArgs as Record<string, unknown> }, o?.signal)) as StructuredResult;
          return result.structuredContent as AdapterEnvelope;
        } catch (error) {
          if (o?.signal?.aborted === true) return CANCELLED;
          throw error;
        }
      },
      async decide(approvalId, decision) {
        await tracked.runtime.approvals.decide(approvalId, decision);
      },
      async resume(actor, approvalId) {
        const result = (await (await clientFor(actor)).callTool({ name: "approvals_resume", arguments: { approvalId } })) as StructuredResult;
        return result.structuredContent as AdapterEnvelope;
      },
      async auditEvents() {
        await tracked.settled();
        return fixture.audit.events();
      },
      buildWithCollidingNaming: async () => createMCPHandler(tracked.runtime, { ...optionsFor(url), toolNaming: collidingToolNaming }),
    };
  });
}
