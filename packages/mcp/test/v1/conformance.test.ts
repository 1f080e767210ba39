// The shared adapter conformance suite (docs/architecture/spec/adapters.md#adapters-5-1, "mcp" row), run twice: the SDK `Client` over
// `InMemoryTransport`, and over Streamable HTTP against `createMCPHttpHandler` mounted with `toNodeRequestListener` on an
// ephemeral 127.0.0.1 port (docs/architecture/spec/adapters.md#adapters-3-10 item 1). Mapped naming, no scope, `runtime.approvals.decide` to decide and the
// `approvals_resume` tool to resume. The MCP client rejects an aborted call, so `callTool` reports `CANCELLED`
// for it and the suite checks the cancellation server-side (handler saw the abort, audit `capability.cancelled`).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAgentRuntime, type Actor, type AgentRuntime } from "@orpc-agent/core";
import {
  collidingToolNaming,
  describeAdapterConformance,
  type AdapterEnvelope,
  type ConformanceFixture,
  type ConformanceHarness,
} from "../../../../test-fixtures/conformance.js";
import { createMCPHttpHandler, createMCPServer, type MCPServerOptions } from "../../src/v1/index.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectHttp, listen } from "../support/http.js";
import { connectInMemory, tokenFor } from "../support/in-memory.js";

closeEverythingAfterEachTest();

const CANCELLED: AdapterEnvelope = { status: "error", error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false } };

/** The fixture runtime, with every server-side invoke/resume tracked so audit reads wait for cancelled calls too. */
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

/** The token of each fixture actor is its id; the server maps verified tokens back to actors, never arguments. */
function identityOptions(): Pick<MCPServerOptions, "createContext"> {
  return {
    createContext: ({ authInfo }) => {
      const id = authInfo?.token;
      return typeof id === "string" && id.startsWith("u_") ? { actor: { id, kind: "user" }, context: {} } : null;
    },
  };
}

function toEnvelope(result: CallToolResult): AdapterEnvelope {
  return result.structuredContent as AdapterEnvelope;
}

/** What both harnesses share once each knows how to get a connected client for an actor. */
function mcpHarness(
  fixture: ConformanceFixture,
  tracked: ReturnType<typeof fixtureRuntime>,
  clientFor: (actor: Actor) => Promise<Client>,
  buildWithCollidingNaming: () => Promise<unknown>,
): ConformanceHarness {
  return {
    surface: "mcp",
    naming: "mapped",
    scopes: false,
    async listTools(actor) {
      const { tools } = await (await clientFor(actor)).listTools();
      return tools.map((tool) => ({ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema }));
    },
    async callTool(actor, toolName, rawArgs, o) {
      const client = await clientFor(actor);
      try {
        const result = await client.callTool({ name: toolName, arguments: rawArgs as Record<string, unknown> }, undefined, o?.signal ? { signal: o.signal } : undefined);
        return toEnvelope(result as CallToolResult);
      } catch (error) {
        // The client rejects an aborted request and the server sends no response (docs/architecture/spec/adapters.md#adapters-3-5, docs/architecture/spec/adapters.md#adapters-5-1).
        if (o?.signal?.aborted === true) return CANCELLED;
        throw error;
      }
    },
    async decide(approvalId, decision) {
      await tracked.runtime.approvals.decide(approvalId, decision);
    },
    async resume(actor, approvalId) {
      const result = await (await clientFor(actor)).callTool({ name: "approvals_resume", arguments: { approvalId } });
      return toEnvelope(result as CallToolResult);
    },
    async auditEvents() {
      await tracked.settled();
      return fixture.audit.events();
    },
    buildWithCollidingNaming,
  };
}

/** One client per actor, created on first use. */
function perActor(connect: (actor: Actor) => Promise<Client>): (actor: Actor) => Promise<Client> {
  const clients = new Map<string, Promise<Client>>();
  return (actor) => {
    let client = clients.get(actor.id);
    if (client === undefined) {
      client = connect(actor);
      clients.set(actor.id, client);
    }
    return client;
  };
}

// The shared suite models a user acting directly (its audit actor is exactly { id, kind }), so these tokens name no
// OAuth client: a token with a clientId records it as `actor.via`, tested in tests/adversarial/si-3-acting-agent.test.ts.
const conformanceToken = (token: string) => tokenFor(token, { clientId: "" });

describeAdapterConformance("mcp over InMemoryTransport", async (fixture) => {
  const tracked = fixtureRuntime(fixture);
  const options: MCPServerOptions = { ...identityOptions(), approvals: { resumeTool: true } };
  const clientFor = perActor(async (actor) => {
    const mcp = createMCPServer(tracked.runtime, options);
    return (await connectInMemory(mcp, conformanceToken(actor.id))).client;
  });
  return mcpHarness(fixture, tracked, clientFor, async () => createMCPServer(tracked.runtime, { ...options, toolNaming: collidingToolNaming }));
});

describeAdapterConformance("mcp over Streamable HTTP (loopback)", async (fixture) => {
  const tracked = fixtureRuntime(fixture);
  const options = {
    ...identityOptions(),
    approvals: { resumeTool: true },
    verifyToken: (token: string) => conformanceToken(token),
  };
  const { url } = await listen(createMCPHttpHandler(tracked.runtime, options));
  const clientFor = perActor(async (actor) => (await connectHttp(url, actor.id)).client);
  return mcpHarness(fixture, tracked, clientFor, async () => createMCPHttpHandler(tracked.runtime, { ...options, toolNaming: collidingToolNaming }));
});
