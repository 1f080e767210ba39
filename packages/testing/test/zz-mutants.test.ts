import { createAgentRuntime, type CapabilityDescriptor } from "@orpc-agent/core";
import { describeAdapterConformance, referenceEnvelope, type ConformanceFixture, type ConformanceHarness } from "../../../test-fixtures/conformance.js";

type Mut = { noSignal?: boolean; leak?: boolean; actorFromArgs?: boolean; coordinatorDecide?: boolean; noScope?: boolean; dropGated?: boolean; surface?: "direct"; suffix?: boolean; noExposureCheck?: boolean };
function harness(m: Mut) {
  return async (fixture: ConformanceFixture): Promise<ConformanceHarness> => {
    const runtime = createAgentRuntime({ governance: fixture.governance, approvals: { coordinator: fixture.approvals }, audit: fixture.audit });
    const surface = m.surface ?? "test";
    return {
      surface: "test", naming: "identity", scopes: true,
      async listTools(actor, o) {
        let d: CapabilityDescriptor[] = await runtime.describe(surface, m.noScope || !o?.scope ? { actor, context: {} } : { actor, context: {}, scope: o.scope });
        if (m.dropGated) d = d.filter((x) => x.id !== "fixtures.gated");
        return d.map((x) => ({ name: x.id, description: m.suffix && x.requiresApproval ? x.description + " Requires approval." : x.description, inputSchema: x.inputSchema, native: x }));
      },
      async callTool(actor, name, args, o) {
        const a = m.actorFromArgs && (args as any)?.actor ? { kind: "user" as const, ...(args as any).actor } : actor;
        const r = await runtime.invoke(name, args, { actor: a, context: {}, surface, ...(o?.signal && !m.noSignal ? { signal: o.signal } : {}) });
        if (m.leak && (r.status === "failed" || r.status === "cancelled")) return { status: "error", error: { code: r.error.code, message: r.error.message, retryable: r.error.retryable } };
        return referenceEnvelope(r);
      },
      async decide(id, d) { if (m.coordinatorDecide) await fixture.approvals.decide(id, d); else await runtime.approvals.decide(id, d); },
      async resume(actor, id) { return referenceEnvelope(await runtime.resume(id, { context: {}, expectedActor: actor })); },
      async auditEvents() { return fixture.audit.events(); },
    };
  };
}
describeAdapterConformance("leak", harness({ leak: true }));
describeAdapterConformance("actorFromArgs", harness({ actorFromArgs: true }));
describeAdapterConformance("coordinatorDecide", harness({ coordinatorDecide: true }));
describeAdapterConformance("noScope", harness({ noScope: true }));
describeAdapterConformance("dropGated", harness({ dropGated: true }));
describeAdapterConformance("wrongSurface", harness({ surface: "direct" }));
describeAdapterConformance("suffix", harness({ suffix: true }));
describeAdapterConformance("noSignal", harness({ noSignal: true }));
