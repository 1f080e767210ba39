// Core's own conformance run (docs/architecture/spec/adapters.md#adapters-5-1, "direct" row): no adapter, the runtime itself on surface
// `direct`, with identity naming and the reference translation of docs/architecture/spec/adapters.md#adapters-1-5.
import { createAgentRuntime, type CapabilityDescriptor } from "../../src/index.js";
import { describeAdapterConformance, referenceEnvelope, type ConformanceFixture, type ConformanceHarness, type HarnessTool } from "../../../../test-fixtures/conformance.js";

function toHarnessTool(descriptor: CapabilityDescriptor): HarnessTool {
  return { name: descriptor.id, description: descriptor.description, inputSchema: descriptor.inputSchema, native: descriptor };
}

async function directHarness(fixture: ConformanceFixture): Promise<ConformanceHarness> {
  const runtime = createAgentRuntime({
    governance: fixture.governance,
    approvals: { coordinator: fixture.approvals },
    audit: fixture.audit,
  });
  const context = {};
  return {
    surface: "direct",
    naming: "identity",
    scopes: true,
    async listTools(actor, o) {
      const descriptors = await runtime.describe("direct", o?.scope ? { actor, context, scope: o.scope } : { actor, context });
      return descriptors.map(toHarnessTool);
    },
    async callTool(actor, toolName, rawArgs, o) {
      const result = await runtime.invoke(toolName, rawArgs, o?.signal ? { actor, context, surface: "direct", signal: o.signal } : { actor, context, surface: "direct" });
      return referenceEnvelope(result);
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
  };
}

describeAdapterConformance("direct", directHarness);
