// Shadow policies (issue 30 part 1): evaluated beside the enforced ones, never obeyed. Every outcome below is compared
// with the same runtime built without the shadow, so "never changes the outcome" is checked, not assumed.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  deny,
  hide,
  requireApproval,
  type AgentPolicy,
  type CapabilityDefs,
  type ExecutionResult,
} from "../../src/index.js";
import { auditLog, base, counted, dana, errorOf, meta } from "./pipeline-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W2"]);

const SENTINEL = "SHADOW-SENTINEL-4711";

function runtimeWith(defs: CapabilityDefs, policies: AgentPolicy[], shadowPolicies: AgentPolicy[] = [], policyTimeoutMs?: number) {
  const log = auditLog();
  const governance = defineGovernance({ registry: createCapabilityRegistry(defs), policies, shadowPolicies });
  const runtime = createAgentRuntime({ governance, audit: log.sink, ...(policyTimeoutMs ? { defaults: { policyTimeoutMs } } : {}) });
  return { runtime, governance, ...log };
}

/** An envelope without its per-execution ids, for comparing the same call on two runtimes. */
function outcome(result: ExecutionResult) {
  if (result.status === "completed") return { status: result.status, output: result.output };
  if (result.status === "approval-required") return { status: result.status, reasons: result.approval.reasons, types: result.approval.types };
  const error = errorOf(result);
  return { status: result.status, code: error.code, publicMessage: error.publicMessage, details: error.details };
}

function note() {
  const calls = { count: 0 };
  const procedure = base
    .input(z.object({ text: z.string() }))
    .meta(agentMeta(meta({ sideEffect: "write", expose: { direct: true, aiSdk: true } })))
    .handler(({ input }) => {
      calls.count++;
      return { saved: input.text.length };
    });
  return { procedure, calls };
}

const throwing = definePolicy("throws", () => {
  throw new Error(SENTINEL);
});
const never = definePolicy("never-settles", () => new Promise<never>(() => {}));
const denies = definePolicy("denies", () => deny("nope", "Denied."));
const allows = definePolicy("allows", () => allow());
const asks = definePolicy("asks", () => requireApproval({ reason: "Would ask a manager." }));

describe("shadow policies never change an outcome (SI-7)", () => {
  const cases: { name: string; enforced: AgentPolicy[]; shadow: AgentPolicy; decision: string; enforcedVerdict: string }[] = [
    { name: "a throwing shadow", enforced: [], shadow: throwing, decision: "error", enforcedVerdict: "allow" },
    { name: "a timing-out shadow", enforced: [], shadow: never, decision: "error", enforcedVerdict: "allow" },
    { name: "a shadow denying while the enforced policies allow", enforced: [allows], shadow: denies, decision: "deny", enforcedVerdict: "allow" },
    { name: "a shadow allowing while an enforced policy denies", enforced: [denies], shadow: allows, decision: "allow", enforcedVerdict: "deny" },
    { name: "a shadow requiring approval while the enforced policies allow", enforced: [allows], shadow: asks, decision: "require-approval", enforcedVerdict: "allow" },
    { name: "a shadow hiding while the enforced policies allow", enforced: [], shadow: definePolicy("hides", () => hide()), decision: "hide", enforcedVerdict: "allow" },
  ];

  for (const c of cases) {
    it(`SI-7: ${c.name} leaves the envelope of the runtime without it, and records the divergence`, async () => {
      const withShadow = runtimeWith({ note: note().procedure }, c.enforced, [c.shadow], 50);
      const without = runtimeWith({ note: note().procedure }, c.enforced, [], 50);

      const shadowed = await withShadow.runtime.invoke("note", { text: SENTINEL }, { actor: dana, context: {} });
      const plain = await without.runtime.invoke("note", { text: SENTINEL }, { actor: dana, context: {} });
      // A shadow still deciding never holds the answer; its divergence is recorded when it settles or times out.
      await withShadow.runtime.drainAudit();

      expect(outcome(shadowed)).toEqual(outcome(plain));
      const diverged = withShadow.ofType("capability.shadow_diverged");
      expect(diverged.map((e) => e.data)).toEqual([{ policy: c.shadow.name, phase: "invocation", decision: c.decision, enforced: c.enforcedVerdict }]);
      expect(diverged[0]).toMatchObject({ capabilityId: "note", surface: "direct", actor: { id: "dana", kind: "user" }, executionId: shadowed.executionId });
      // The shadow's stance never joins the enforced evidence.
      expect(JSON.stringify(withShadow.events.filter((e) => e.type !== "capability.shadow_diverged"))).not.toContain(c.shadow.name);
      expect(withShadow.events.map((e) => e.type).filter((t) => t !== "capability.shadow_diverged")).toEqual(without.events.map((e) => e.type));
    });
  }

  it("SI-7: a shadow that agrees with the enforced outcome leaves no event", async () => {
    const { runtime, ofType } = runtimeWith({ note: note().procedure }, [denies], [definePolicy("also-denies", () => deny())]);
    const result = await runtime.invoke("note", { text: "x" }, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("POLICY_DENIED");
    expect(ofType("capability.shadow_diverged")).toEqual([]);
  });

  it("SI-7: a shadow mutating the frozen input fails only itself; the handler gets the validated value", async () => {
    const n = note();
    const mutate = definePolicy("mutates", (req) => {
      (req.input as { text: string }).text = "changed";
      return allow();
    });
    const { runtime, ofType } = runtimeWith({ note: n.procedure }, [], [mutate]);
    const result = await runtime.invoke("note", { text: "abc" }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { saved: 3 } });
    expect(ofType("capability.shadow_diverged").map((e) => e.data.decision)).toEqual(["error"]);
  });

  it("SI-7: a slow shadow cannot spend the enforced policies' deadline: it runs after them", async () => {
    let enforcedRan = false;
    const enforcedAfter = definePolicy("enforced-after", () => {
      enforcedRan = true;
      return allow();
    });
    const { runtime } = runtimeWith({ note: note().procedure }, [enforcedAfter], [never], 30);
    const result = await runtime.invoke("note", { text: "x" }, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(enforcedRan).toBe(true);
  });

  it("SI-7: shadow-only capabilities keep the answers of ungoverned ones for a missing actor and bad input (SI-8 checks ignore shadows)", async () => {
    const shadowHide = definePolicy("shadow-hide", () => hide(), { phases: ["discovery"] });
    const withShadow = runtimeWith({ note: note().procedure }, [], [shadowHide]);
    const without = runtimeWith({ note: note().procedure }, []);
    for (const [input, actor] of [
      [{ text: "x" }, undefined],
      [{ text: 1 }, undefined],
      [{ text: 1 }, dana],
    ] as const) {
      const a = await withShadow.runtime.invoke("note", input, { actor: actor as never, context: {} });
      const b = await without.runtime.invoke("note", input, { actor: actor as never, context: {} });
      expect(outcome(a)).toEqual(outcome(b));
    }
  });

  it("SI-7: an execution-phase shadow and a resumed call: the approval flow is the enforced one", async () => {
    const n = note();
    const gate = definePolicy("gate", () => requireApproval({ reason: "Check." }));
    const shadowExec = definePolicy("shadow-exec", () => deny(), { phases: ["execution"] });
    const { runtime, ofType } = runtimeWith({ note: n.procedure }, [gate], [shadowExec]);
    const first = await runtime.invoke("note", { text: "x" }, { actor: dana, context: {} });
    if (first.status !== "approval-required") throw new Error(`expected a suspension, got ${first.status}`);
    await runtime.approvals.decide(first.approval.id, { status: "approved", approver: { id: "mgr", kind: "user" } });
    const resumed = await runtime.resume(first.approval.id, { context: {} });
    expect(resumed.status).toBe("completed");
    expect(n.calls.count).toBe(1);
    expect(ofType("capability.shadow_diverged").map((e) => e.data)).toEqual([{ policy: "shadow-exec", phase: "execution", decision: "deny", enforced: "allow" }]);
  });
});

describe("shadow policies in spans", () => {
  function recordingTracer() {
    const spans: { name: string; attributes: Record<string, unknown>; status?: string }[] = [];
    const tracing = {
      startSpan(name: string, attributes: Record<string, string | number | boolean>) {
        const span: { name: string; attributes: Record<string, unknown>; status?: string } = { name, attributes: { ...attributes } };
        spans.push(span);
        return {
          setAttributes: (more: Record<string, unknown>) => void Object.assign(span.attributes, more),
          recordError: () => {},
          end: (status: "ok" | "error") => void (span.status = status),
        };
      },
    };
    return { spans, tracing };
  }

  it("the policy-evaluation span counts divergences and ends by the enforced verdict only", async () => {
    const { spans, tracing } = recordingTracer();
    const governance = defineGovernance({ registry: createCapabilityRegistry({ note: note().procedure }), shadowPolicies: [throwing, denies] });
    const runtime = createAgentRuntime({ governance, audit: () => {}, tracing });
    expect((await runtime.invoke("note", { text: "x" }, { actor: dana, context: {} })).status).toBe("completed");
    const policySpans = spans.filter((span) => span.name === "agent.policy_evaluation");
    expect(policySpans.map((span) => [span.attributes["orpc_agent.shadow_divergences"], span.status])).toEqual([[2, "ok"]]);
  });

  it("SI-7: with a shadow still deciding, the call answers first; the batch's span ends when the shadow settles, with its count", async () => {
    const { spans, tracing } = recordingTracer();
    let answer!: (decision: unknown) => void;
    const held = definePolicy("held", () => new Promise((resolve) => (answer = resolve)) as never);
    const governance = defineGovernance({ registry: createCapabilityRegistry({ note: note().procedure }), policies: [denies], shadowPolicies: [held] });
    const runtime = createAgentRuntime({ governance, audit: () => {}, tracing, defaults: { policyTimeoutMs: 3_600_000 } });
    expect(errorOf(await runtime.invoke("note", { text: "x" }, { actor: dana, context: {} })).code).toBe("POLICY_DENIED");
    const policySpan = spans.find((span) => span.name === "agent.policy_evaluation")!;
    expect(policySpan.status).toBeUndefined();
    answer(allow());
    await runtime.drainAudit();
    expect([policySpan.attributes["orpc_agent.shadow_divergences"], policySpan.status]).toEqual([1, "ok"]);
  });
});

describe("shadow policies at discovery and in governance", () => {
  it("SI-7: a shadow hide at discovery lists the capability anyway and records the divergence without an execution", async () => {
    const { procedure } = counted();
    const shadowHide = definePolicy("shadow-hide", () => hide(), { phases: ["discovery"] });
    const { runtime, ofType } = runtimeWith({ ping: procedure }, [], [shadowHide]);
    const listed = await runtime.describe("direct", { actor: dana, context: {} });
    expect(listed.map((d) => d.id)).toEqual(["ping"]);
    const [event] = ofType("capability.shadow_diverged");
    expect(event).toMatchObject({ capabilityId: "ping", surface: "direct", data: { policy: "shadow-hide", phase: "discovery", decision: "hide", enforced: "allow" } });
    expect(event && "executionId" in event).toBe(false);
  });

  it("a policy declared with mode: shadow in `policies` joins shadowPolicies; the manifest lists both kinds", () => {
    const shadowed = definePolicy("new-limit", () => deny(), { mode: "shadow", scope: { capabilities: { ids: ["note"] } } });
    const set = definePolicy("candidate", () => allow());
    const governance = defineGovernance({ registry: createCapabilityRegistry({ note: note().procedure }), policies: [allows, shadowed], shadowPolicies: [set] });
    expect(governance.policies.map((p) => p.name)).toEqual(["allows"]);
    expect(governance.shadowPolicies.map((p) => [p.name, p.mode])).toEqual([
      ["new-limit", "shadow"],
      ["candidate", "shadow"],
    ]);
    // The governance-level set is marked on a copy: the caller's policy stays enforceable elsewhere.
    expect(set.mode).toBeUndefined();
    expect(governance.manifest.map((e) => [e.name, e.mode])).toEqual([
      ["allows", undefined],
      ["new-limit", "shadow"],
      ["candidate", "shadow"],
    ]);
    expect("mode" in governance.manifest[0]!).toBe(false);
  });

  it("a shadow policy among a capability's own meta.policies is shadowed too", async () => {
    const n = base
      .meta(agentMeta(meta({ policies: [definePolicy("own-shadow", () => deny(), { mode: "shadow" })] })))
      .handler(() => "ok");
    const { runtime, ofType } = runtimeWith({ n }, []);
    expect(await runtime.invoke("n", undefined, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    expect(ofType("capability.shadow_diverged").map((e) => e.data.policy)).toEqual(["own-shadow"]);
  });

  it("an unknown mode is refused everywhere, never enforced or shadowed by guess", () => {
    expect(() => definePolicy("p", () => allow(), { mode: "dryrun" as never })).toThrow(/mode must be "enforce" or "shadow"/);
    const bad = { name: "p", phases: ["invocation"], evaluate: () => allow(), mode: "warn" } as unknown as AgentPolicy;
    const registry = createCapabilityRegistry({ note: note().procedure });
    expect(() => defineGovernance({ registry, policies: [bad] })).toThrow(/policies\[0\] is not a policy/);
    expect(() => defineGovernance({ registry, shadowPolicies: [bad] })).toThrow(/shadowPolicies\[0\] is not a policy/);
    expect(() => defineGovernance({ registry, shadowPolicies: "x" as never })).toThrow(/shadowPolicies` must be an array/);
    expect(() => createCapabilityRegistry({ n: base.meta(agentMeta(meta({ policies: [bad] }))).handler(() => 1) })).toThrow(/policies\[0\] must be a policy/);
  });

  it("SI-10: the divergence event carries no input, reason, message or code", async () => {
    const shadowDeny = definePolicy("shadow-deny", () => deny(`code-${SENTINEL}`, `message-${SENTINEL}`));
    const shadowAsk = definePolicy("shadow-ask", () => requireApproval({ reason: `reason-${SENTINEL}` }));
    const { runtime, ofType } = runtimeWith({ note: note().procedure }, [], [shadowDeny, shadowAsk]);
    await runtime.invoke("note", { text: SENTINEL }, { actor: dana, context: {} });
    const diverged = ofType("capability.shadow_diverged");
    expect(diverged).toHaveLength(2);
    expect(JSON.stringify(diverged)).not.toContain(SENTINEL);
  });
});

describe("scope by acting agent (scope.via)", () => {
  it("a policy scoped to an agent applies only to requests that agent carries; other and absent agents skip it unrecorded", async () => {
    const botOnly = definePolicy("bot-only", () => deny("bots", "Not through this bot."), { scope: { via: ["support-bot"] } });
    const { runtime, ofType } = runtimeWith({ note: note().procedure }, [botOnly]);
    const viaBot = await runtime.invoke("note", { text: "x" }, { actor: { ...dana, via: { id: "support-bot" } }, context: {} });
    const viaOther = await runtime.invoke("note", { text: "x" }, { actor: { ...dana, via: { id: "claude-desktop" } }, context: {} });
    const direct = await runtime.invoke("note", { text: "x" }, { actor: dana, context: {} });
    expect(errorOf(viaBot).code).toBe("POLICY_DENIED");
    expect(viaOther.status).toBe("completed");
    expect(direct.status).toBe("completed");
    expect(ofType("capability.denied").map((e) => e.data.policyDecisions)).toEqual([[{ policy: "bot-only", type: "deny" }]]);
    expect(ofType("capability.completed").every((e) => !JSON.stringify(e).includes("bot-only"))).toBe(true);
  });

  it("an agent-scoped discovery policy hides only from that agent", async () => {
    const hideFromBot = definePolicy("hide-from-bot", () => hide(), { phases: ["discovery"], scope: { via: ["support-bot"] } });
    const { runtime } = runtimeWith({ ping: counted().procedure }, [hideFromBot]);
    expect(await runtime.describe("direct", { actor: { ...dana, via: { id: "support-bot" } }, context: {} })).toEqual([]);
    expect((await runtime.describe("direct", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["ping"]);
  });

  it("scope.via is validated and normalized like ids", () => {
    expect(definePolicy("p", () => allow(), { scope: { via: ["b", "a", "b"] } }).scope).toEqual({ via: ["a", "b"] });
    expect(() => definePolicy("p", () => allow(), { scope: { via: [""] } })).toThrow(/via must contain only non-empty strings/);
    expect(() => definePolicy("p", () => allow(), { scope: { via: "bot" as never } })).toThrow(/via must be an array/);
  });
});
