// Required test (1), docs/architecture/spec/adapters.md#adapters-4: the testing package passes the adapter conformance suite on surface `test`
// with identity naming, built from the fixture's governance, coordinator and sink.
import { createAgentTestRuntime, testClock } from "../src/index.js";
import { describeAdapterConformance, referenceEnvelope, type ConformanceFixture, type ConformanceHarness } from "../../../test-fixtures/conformance.js";

async function testingHarness(fixture: ConformanceFixture): Promise<ConformanceHarness> {
  // The fixture's coordinator runs on the wall clock, so the test clock starts there too: requests it stamps must
  // not look expired to the coordinator.
  const t = createAgentTestRuntime({
    governance: fixture.governance,
    approvals: fixture.approvals,
    audit: fixture.audit,
    clock: testClock(new Date().toISOString()),
  });
  return {
    surface: "test",
    naming: "identity",
    scopes: true,
    async listTools(actor, o) {
      const descriptors = await t.describe("test", o?.scope ? { actor, scope: o.scope } : { actor });
      return descriptors.map((d) => ({ name: d.id, description: d.description, inputSchema: d.inputSchema, native: d }));
    },
    async callTool(actor, toolName, rawArgs, o) {
      return referenceEnvelope(await t.invoke(toolName, rawArgs, o?.signal ? { actor, signal: o.signal } : { actor }));
    },
    async decide(approvalId, decision) {
      await t.approvals.decide(approvalId, decision);
    },
    async resume(actor, approvalId) {
      return referenceEnvelope(await t.resume(approvalId, { expectedActor: actor }));
    },
    async auditEvents() {
      return fixture.audit.events();
    },
  };
}

describeAdapterConformance("testing", testingHarness);
