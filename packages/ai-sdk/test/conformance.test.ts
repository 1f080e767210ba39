// docs/architecture/spec/adapters.md#adapters-2-7 (1), docs/architecture/spec/adapters.md#adapters-5-1 "ai-sdk local" row: the shared conformance script over toAISDKTools. `callTool` is
// the tool's own execute; a name absent from the tool set models a hostile client, since the AI SDK loop itself
// rejects such names before adapter code runs: docs/architecture/spec/adapters.md#adapters-1-4 resolution, then the runtime on the adapter's surface.
// The remote row (`ai-sdk-remote`) is conformance-remote.test.ts.
import { createAgentRuntime, type Actor } from "@orpc-agent/core";
import {
  collidingToolNaming,
  describeAdapterConformance,
  referenceEnvelope,
  type AdapterEnvelope,
  type ConformanceFixture,
  type ConformanceHarness,
} from "../../../test-fixtures/conformance.js";
import { u_dana } from "../../../test-fixtures/registry.js";
import { toAISDKTools } from "../src/index.js";
import { toToolResult } from "../src/result.js";
import { toolNameMapFor } from "../src/tool-names.js";
import { runTool } from "./support/run-tool.js";

/** docs/architecture/spec/adapters.md#adapters-1-4: a raw registry id addressed by a different wire name is concealed without invoking. */
const NOT_FOUND: AdapterEnvelope = { status: "error", error: { code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false } };

async function aiSdkLocalHarness(fixture: ConformanceFixture): Promise<ConformanceHarness> {
  const runtime = createAgentRuntime({ governance: fixture.governance, approvals: { coordinator: fixture.approvals }, audit: fixture.audit });
  const context = {};
  const toolsFor = (actor: Actor, scope?: { tags?: string[]; ids?: string[] }) =>
    toAISDKTools(runtime, scope === undefined ? { actor, context } : { actor, context, scope });

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
      if (Object.hasOwn(tools, toolName)) return runTool(tools, toolName, rawArgs, o?.signal ? { abortSignal: o.signal } : {});
      // Hostile client (docs/architecture/spec/adapters.md#adapters-5-1): the loop would refuse this name; a client that skips the loop reaches this far.
      const capabilityId = toolNameMapFor(runtime.registry).resolve(toolName);
      if (capabilityId === undefined) return NOT_FOUND;
      const options = o?.signal ? { actor, context, surface: "aiSdk" as const, signal: o.signal } : { actor, context, surface: "aiSdk" as const };
      return toToolResult(await runtime.invoke(capabilityId, rawArgs, options));
    },
    async decide(approvalId, decision) {
      await runtime.approvals.decide(approvalId, decision);
    },
    async resume(actor, approvalId) {
      return referenceEnvelope(await runtime.resume(approvalId, { context, expectedActor: actor }));
    },
    async auditEvents() {
      await runtime.drainAudit();
      return fixture.audit.events();
    },
    buildWithCollidingNaming: () => toAISDKTools(runtime, { actor: u_dana, context, toolNaming: collidingToolNaming }),
  };
}

describeAdapterConformance("ai-sdk", aiSdkLocalHarness);
