// docs/architecture/spec/adapters.md#adapters-2-7 (1), docs/architecture/spec/adapters.md#adapters-5-1 "ai-sdk remote" row: the shared conformance script over the remote overload.
// createCapabilityRouter + createInvocationService behind oRPC's RPCHandler on node:http (127.0.0.1, port 0),
// createHTTPCapabilityClient, and toAISDKTools(client, …); `callTool` is the remote tool's own execute.
// Delivery is journaled (docs/architecture/spec/distributed.md#distributed-4): an abort after dispatch is outcome-unknown (C11, C21), and a second
// resume replays the stored envelope (C16). A name absent from the tool set models a hostile client (docs/architecture/spec/adapters.md#adapters-5-1): docs/architecture/spec/adapters.md#adapters-1-4
// resolution against the server's names, then `client.invoke` directly.
import { afterEach } from "vitest";
import { createAgentRuntime } from "@orpc-agent/core";
import { createCapabilityRouter } from "@orpc-agent/core/server";
import {
  collidingToolNaming,
  describeAdapterConformance,
  type AdapterEnvelope,
  type ConformanceFixture,
  type ConformanceHarness,
} from "../../../test-fixtures/conformance.js";
import { u_dana, u_mallory, u_priya } from "../../../test-fixtures/registry.js";
import { toAISDKTools, type RemoteAISDKToolResult } from "../src/index.js";
import { toRemoteToolResult } from "../src/remote-result.js";
import { toolNameMapFor } from "../src/tool-names.js";
import { runTool } from "./support/run-tool.js";
import { createTestService, newInvocationId, quietly, startCapabilityServer, type CapabilityServer } from "./support/remote-server.js";

/** docs/architecture/spec/adapters.md#adapters-1-4: a raw registry id addressed by a different wire name is concealed without invoking. */
const NOT_FOUND: AdapterEnvelope = { status: "error", error: { code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false } };

const servers: CapabilityServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function aiSdkRemoteHarness(fixture: ConformanceFixture): Promise<ConformanceHarness> {
  const runtime = createAgentRuntime({ governance: fixture.governance, approvals: { coordinator: fixture.approvals }, audit: fixture.audit });
  const server = await startCapabilityServer({ runtime, appContext: {}, actors: [u_dana, u_priya, u_mallory] });
  servers.push(server);

  // One fresh id per execution (every call below is a new one); the approval result carries it for resume (docs/architecture/spec/adapters.md#adapters-2-6).
  const invocationId = async (_call: { toolCallId: string }) => newInvocationId();
  const invocationOfApproval = new Map<string, string>();
  const remember = (envelope: RemoteAISDKToolResult): AdapterEnvelope => {
    if (envelope.status === "approval-required") invocationOfApproval.set(envelope.approvalId, envelope.invocationId);
    return envelope;
  };
  let calls = 0;

  const toolsFor = (actor: Parameters<ConformanceHarness["listTools"]>[0], scope?: { tags?: string[]; ids?: string[] }) =>
    toAISDKTools(server.clientFor(actor), scope === undefined ? { invocationId } : { invocationId, scope });

  return {
    surface: "aiSdk",
    naming: "mapped",
    scopes: true,
    async listTools(actor, o) {
      const tools = await toolsFor(actor, o?.scope);
      return Object.entries(tools).map(([name, tool]) => ({
        name,
        description: tool.description as string,
        inputSchema: (tool.inputSchema as { jsonSchema: unknown }).jsonSchema,
        native: tool,
      }));
    },
    async callTool(actor, toolName, rawArgs, o) {
      const tools = await toolsFor(actor);
      const toolCallId = `call_${++calls}`;
      if (Object.hasOwn(tools, toolName)) {
        const result = await runTool(tools, toolName, rawArgs, o?.signal ? { toolCallId, abortSignal: o.signal } : { toolCallId });
        return remember(result as RemoteAISDKToolResult);
      }
      // Hostile client (docs/architecture/spec/adapters.md#adapters-5-1): the loop would refuse this name; a client that skips the loop reaches this far.
      const capabilityId = toolNameMapFor(runtime.registry).resolve(toolName);
      if (capabilityId === undefined) return NOT_FOUND;
      const id = await invocationId({ toolCallId });
      const result = await server.clientFor(actor).invoke({ capabilityId, input: rawArgs, invocationId: id }, o?.signal ? { signal: o.signal } : undefined);
      return remember(toRemoteToolResult(result, id));
    },
    async decide(approvalId, decision) {
      // No remote decide exists (docs/architecture/spec/distributed.md#distributed-3-2): the server's own runtime decides.
      await runtime.approvals.decide(approvalId, decision);
    },
    async resume(actor, approvalId) {
      // The client's resume, under the invocation id the approval-required result carried (docs/architecture/spec/distributed.md#distributed-6).
      const id = invocationOfApproval.get(approvalId);
      if (id === undefined) throw new Error(`conformance-remote: no invocation carried approval ${approvalId}`);
      return toRemoteToolResult(await server.clientFor(actor).resume({ invocationId: id, approvalId }), id);
    },
    async auditEvents() {
      // Aborted requests keep running server-side until the runtime settles them; wait for that, then drain.
      await server.idle();
      await runtime.drainAudit();
      return fixture.audit.events();
    },
    // docs/architecture/spec/distributed.md#distributed-2-2: the service's toolNaming.aiSdk is checked when the router is constructed.
    buildWithCollidingNaming: async () =>
      quietly(() =>
        createCapabilityRouter({
          service: createTestService({ aiSdk: collidingToolNaming }),
          runtime,
          surface: "aiSdk",
          resolve: async () => ({ actor: u_dana, context: {} }),
          authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
        }),
      ),
  };
}

describeAdapterConformance("ai-sdk-remote", aiSdkRemoteHarness, { delivery: "journaled" });
