// SI-7 for shadow policies (issue 30 part 1, ADR-028): a shadow never changes an outcome, never fails a call and
// leaves no payload in its event. Each attack is a shadow doing what an enforced policy must not be able to undo:
// odd return values, writes to the objects every later stage reads, hanging at discovery.
import {
  allow,
  createInMemoryApprovalCoordinator,
  definePolicy,
  requireApproval,
  type AgentPolicy,
  type ExecutionResult,
} from "@orpc-agent/core";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

// No startup warning is expected; capturing still fails the file on any stray console.warn.
captureStartupWarnings([]);

const SENTINEL = "shadow-sentinel-9d2";

/** What a caller can observe of a result, without per-execution ids. */
function outcome(result: ExecutionResult) {
  if (result.status === "completed") return { status: result.status, output: result.output };
  if (result.status === "approval-required") return { status: result.status, reasons: result.approval.reasons, types: result.approval.types, quorum: result.approval.quorum };
  const error = errorOf(result);
  return { status: result.status, code: error.code, details: error.details };
}

function echo() {
  const ran = { count: 0 };
  const procedure = base
    .input(z.object({ text: z.string() }))
    .meta({ agent: meta() })
    .handler(({ input, context }) => {
      ran.count++;
      const agent = (context as { agent?: { actor: { id: string }; approval?: { approver: { id: string } } } }).agent;
      return { text: input.text, actor: agent?.actor.id, approver: agent?.approval?.approver.id ?? null };
    });
  return { procedure, ran };
}

describe("odd shadow answers leave the enforced outcome (SI-7)", () => {
  const odd: [string, AgentPolicy["evaluate"]][] = [
    ["a Proxy decision", () => new Proxy({ type: "deny" }, { get: (_t, key) => (key === "type" ? "deny" : undefined) }) as never],
    ["a getter that answers differently on every read", () => {
      let reads = 0;
      return { get type() { return ++reads === 1 ? "hide" : "allow"; } } as never;
    }],
    ["a thenable whose then throws", () => ({ then() { throw new Error(SENTINEL); } }) as never],
    ["a decision that throws on read", () => ({ get type(): never { throw new Error(SENTINEL); } }) as never],
    ["a require-approval with a quorum and a type", () => requireApproval({ reason: SENTINEL, approvalType: "manager", quorum: 5 })],
    ["undefined", () => undefined as never],
    ["a promise rejecting with the input", (req) => Promise.reject(new Error(JSON.stringify(req.input)))],
  ];

  for (const [name, evaluate] of odd) {
    it(`SI-7: a shadow returning ${name} leaves the envelope of the unshadowed runtime and no input in any event (SI-10)`, async () => {
      const plainCap = echo();
      const shadowCap = echo();
      const plain = build({ defs: { op: plainCap.procedure } });
      const shadowed = build({ defs: { op: shadowCap.procedure }, policies: [definePolicy("odd", evaluate, { mode: "shadow" })] });
      const a = await plain.runtime.invoke("op", { text: SENTINEL }, { actor: dana, context: {} });
      const b = await shadowed.runtime.invoke("op", { text: SENTINEL }, { actor: dana, context: {} });
      expect(outcome(b)).toEqual(outcome(a));
      expect(shadowCap.ran.count).toBe(1);
      const diverged = shadowed.events.filter((e) => e.type === "capability.shadow_diverged");
      expect(diverged).toHaveLength(1);
      expect(Object.keys(diverged[0]!.data).sort()).toEqual(["decision", "enforced", "phase", "policy"]);
      expect(JSON.stringify(shadowed.events.filter((e) => e.type !== "capability.completed"))).not.toContain(SENTINEL);
    });
  }

  it("SI-7: a shadow asking for approval does not suspend a call the enforced policies allow, nor raise a suspended request's quorum", async () => {
    const cap = echo();
    const ask = definePolicy("asks-five", () => requireApproval({ reason: "Five people.", quorum: 5 }), { mode: "shadow" });
    const gate = definePolicy("gate", () => requireApproval({ reason: "Check." }));
    const { runtime } = build({ defs: { op: cap.procedure }, policies: [ask] });
    expect(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    const gated = build({ defs: { op: cap.procedure }, policies: [gate, ask], approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    const approval = approvalOf(await gated.runtime.invoke("op", { text: "x" }, { actor: dana, context: {} }));
    expect(approval.quorum).toBeUndefined();
    expect(approval.reasons).toEqual(["Check."]);
  });
});

describe("a shadow cannot write to what later stages read (SI-7, SI-6)", () => {
  it("SI-7: a shadow rewriting req.capability.meta cannot lower the capability's quorum or switch off its redaction for later calls", async () => {
    const ran = { count: 0 };
    const procedure = base
      .input(z.object({ text: z.string() }))
      .meta({ agent: meta({ approval: { required: true, quorum: 2, type: "manager" }, redact: { output: () => ({ redacted: true }) } }) })
      .handler(({ input }) => (ran.count++, { secret: input.text }));
    const vandal = definePolicy(
      "rewrites-meta",
      (req) => {
        const m = req.capability.meta as { approval?: Record<string, unknown>; redact?: Record<string, unknown> };
        try { m.approval!.quorum = 1; } catch { /* frozen */ }
        try { m.approval!.type = "confirmation"; } catch { /* frozen */ }
        try { m.redact!.output = (o: unknown) => o; } catch { /* frozen */ }
        return allow();
      },
      { mode: "shadow", phases: ["invocation", "execution"] },
    );
    const { runtime } = build({ defs: { op: procedure }, policies: [vandal], approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    for (let call = 0; call < 2; call++) {
      const approval = approvalOf(await runtime.invoke("op", { text: SENTINEL }, { actor: dana, context: {} }));
      expect(approval.quorum).toBe(2);
      expect(approval.types).toEqual(["manager"]);
      expect((await runtime.approvals.decide(approval.id, { status: "approved", approver: mo })).status).toBe("pending");
      await runtime.approvals.decide(approval.id, { status: "approved", approver: { id: "ana", kind: "user" } });
      const resumed = await runtime.resume(approval.id, { context: {} });
      expect(resumed).toMatchObject({ status: "completed", output: { redacted: true } });
      expect(JSON.stringify(resumed)).not.toContain(SENTINEL);
    }
    expect(ran.count).toBe(2);
  });

  it("SI-7: a shadow at resume rewriting req.approval and req.actor changes neither who executes, nor the approver, nor the types later demands see", async () => {
    const cap = echo();
    const gate = definePolicy("gate", () => requireApproval({ reason: "Check." }));
    // An execution-phase demand for a manager: only an approval of that type covers it (amended docs/architecture/spec/core.md#core-stage-9).
    const manager = definePolicy("needs-manager", () => requireApproval({ reason: "A manager.", approvalType: "manager" }), { phases: ["execution"] });
    const vandal = definePolicy(
      "rewrites-approval",
      (req) => {
        const approval = req.approval as unknown as { types: string[]; actor: { id: string }; decision: { approver: { id: string } } };
        try { approval.types.push("manager"); } catch { /* frozen */ }
        try { approval.decision.approver.id = "root"; } catch { /* frozen */ }
        try { approval.actor.id = "root"; } catch { /* frozen */ }
        try { (req.actor as { id: string }).id = "root"; } catch { /* frozen */ }
        return allow();
      },
      { mode: "shadow" },
    );
    const withVandal = build({ defs: { op: cap.procedure }, policies: [gate, vandal, manager], approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    const approval = approvalOf(await withVandal.runtime.invoke("op", { text: "x" }, { actor: dana, context: {} }));
    await withVandal.runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    const resumed = await withVandal.runtime.resume(approval.id, { context: {} });
    // As without the shadow: the execution-phase manager demand is not covered, so a new request is made for dana.
    const next = approvalOf(resumed);
    expect(next.types).toContain("manager");
    expect(next.actor).toEqual({ id: "dana", kind: "user" });
    expect(cap.ran.count).toBe(0);
    expect(JSON.stringify(withVandal.events)).not.toContain("root");
  });

  it("SI-7: a shadow at resume rewriting req.approval and req.actor leaves the handler's actor and approver as recorded", async () => {
    const cap = echo();
    const gate = definePolicy("gate", () => requireApproval({ reason: "Check." }));
    const vandal = definePolicy(
      "rewrites-approval",
      (req) => {
        const approval = req.approval as unknown as { decision: { approver: { id: string } }; actor: { id: string } } | undefined;
        if (approval) {
          try { approval.decision.approver.id = "root"; } catch { /* frozen */ }
          try { approval.actor.id = "root"; } catch { /* frozen */ }
        }
        try { (req.actor as { id: string }).id = "root"; } catch { /* frozen */ }
        return allow();
      },
      { mode: "shadow", phases: ["invocation", "execution"] },
    );
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [gate, vandal], approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    const approval = approvalOf(await runtime.invoke("op", { text: "x" }, { actor: dana, context: {} }));
    await runtime.approvals.decide(approval.id, { status: "approved", approver: mo });
    expect(await runtime.resume(approval.id, { context: {} })).toMatchObject({ status: "completed", output: { actor: "dana", approver: "mo" } });
    expect(JSON.stringify(events)).not.toContain("root");
  });
});

describe("a hanging shadow at discovery (SI-7)", () => {
  it("SI-7: a discovery shadow that never settles does not fail describe with TIMEOUT or shorten the catalog", async () => {
    const defs = Object.fromEntries(["a", "b", "c"].map((id) => [id, echo().procedure]));
    const hangs = definePolicy("hangs", () => new Promise<never>(() => {}), { mode: "shadow", phases: ["discovery"] });
    const defaults = { discoveryBudgetMs: 60, policyTimeoutMs: 5_000, policyConcurrency: 1 };
    const plain = build({ defs, defaults });
    const shadowed = build({ defs, defaults, policies: [hangs] });
    const expected = (await plain.runtime.describe("direct", { actor: dana, context: {} })).map((d) => d.id);
    expect(expected).toEqual(["a", "b", "c"]);
    expect((await shadowed.runtime.describe("direct", { actor: dana, context: {} })).map((d) => d.id)).toEqual(expected);
  });
});
