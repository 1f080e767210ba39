// docs/architecture/spec/core.md#core-15 items not already covered by the SI files next to this one (items 2, 7 and 12 in particular).
import { z } from "zod";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  type PolicyDecision,
} from "../../src/index.js";
import { base, build, counted, dana, delay, errorOf, meta, priya } from "./pipeline-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W1"]);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("§15 item 2: policy scope {} does not narrow", () => {
  it("a policy with scope {} or { capabilities: {} } applies to every capability on every surface", async () => {
    const evaluated: string[] = [];
    const record = (name: string) => (req: { capability: { id: string } }) => {
      evaluated.push(`${name}:${req.capability.id}`);
      return allow();
    };
    const { runtime } = build({
      defs: { tagged: counted({ tags: ["x"] }).procedure, untagged: counted({ sideEffect: "write", risk: "critical" }).procedure },
      policies: [definePolicy("empty", record("empty"), { scope: {} }), definePolicy("empty-caps", record("empty-caps"), { scope: { capabilities: {} } })],
      approvals: { coordinator: createInMemoryApprovalCoordinator() },
    });
    await runtime.invoke("tagged", undefined, { actor: dana, context: {} });
    await runtime.invoke("untagged", undefined, { actor: dana, context: {}, surface: "aiSdk" });
    expect(evaluated).toEqual(["empty:tagged", "empty-caps:tagged", "empty:untagged", "empty-caps:untagged"]);
  });
});

describe("§15 item 7: what call receives", () => {
  function recordingCapability(agent = meta()) {
    const atCall: unknown[] = [];
    const inHandler: unknown[] = [];
    // A middleware placed before .input() sees exactly what the runtime handed to oRPC's call.
    const procedure = base
      .use(({ next }, input) => {
        atCall.push(input);
        return next();
      })
      .input(z.object({ word: z.string().transform((w) => `${w}!`), qty: z.number().default(1) }))
      .meta(agentMeta(agent))
      .handler(({ input }) => {
        inHandler.push(input);
        return input;
      });
    return { procedure, atCall, inHandler };
  }

  it("SI-6: a fresh invoke hands call the validated value, so transforms apply exactly once", async () => {
    const target = recordingCapability();
    const policyInputs: unknown[] = [];
    const look = definePolicy("look", (req) => {
      policyInputs.push(req.input);
      return allow();
    });
    const { runtime } = build({ defs: { shout: target.procedure }, policies: [look] });
    const raw = { word: "hi", extra: "kept in raw" };

    const result = await runtime.invoke("shout", raw, { actor: dana, context: {} });

    expect(result).toMatchObject({ status: "completed", output: { word: "hi!", qty: 1 } });
    // Amended docs/architecture/spec/core.md#core-6-1: even a middleware before .input() sees the value the policies saw, never the raw one.
    expect(target.atCall).toEqual([{ word: "hi!", qty: 1 }]);
    expect(target.atCall[0]).toBe(policyInputs[0]);
    expect(target.inHandler).toEqual([{ word: "hi!", qty: 1 }]);
    expect(policyInputs).toEqual([{ word: "hi!", qty: 1 }]);
  });

  it("SI-5: resume applies a transform once: the submitted input is validated again and must give the approved value", async () => {
    const target = recordingCapability(meta({ approval: { required: true } }));
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { shout: target.procedure }, approvals: { coordinator } });

    const pending = await runtime.invoke("shout", { word: "hi", extra: "raw only" }, { actor: dana, context: {} });
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    expect(target.atCall).toEqual([]);
    expect(pending.approval.input).toEqual({ word: "hi!", qty: 1 });

    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    const done = await runtime.resume(pending.approval.id, { context: {} });

    // The submitted "hi" gives "hi!" again: exactly what was approved, never "hi!!".
    expect(done.status).toBe("completed");
    expect(target.atCall).toEqual([{ word: "hi!", qty: 1 }]);
    expect((await coordinator.get(pending.approval.id))!.status).toBe("consumed");
  });

  it("SI-5: resume hands call exactly the approved value when the schema gives it back unchanged", async () => {
    const atCall: unknown[] = [];
    const procedure = base
      .use(({ next }, input) => {
        atCall.push(input);
        return next();
      })
      .input(z.object({ word: z.string().trim(), qty: z.number().default(1) }))
      .meta(agentMeta(meta({ approval: { required: true } })))
      .handler(({ input }) => input);
    const { runtime } = build({ defs: { trim: procedure } });
    const pending = await runtime.invoke("trim", { word: " hi ", extra: "raw only" }, { actor: dana, context: {} });
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    const done = await runtime.resume(pending.approval.id, { context: {} });
    expect(done).toMatchObject({ status: "completed", output: { word: "hi", qty: 1 } });
    expect(atCall).toEqual([{ word: "hi", qty: 1 }]);
    expect(atCall[0]).not.toHaveProperty("extra");
  });
});

describe("§15 item 12: audit configuration warnings and the clock", () => {
  function writeRegistry() {
    return createCapabilityRegistry({ refund: counted({ sideEffect: "write", expose: { aiSdk: true } }).procedure });
  }
  const w3Messages = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith("[orpc-agent]") && m.includes("audit") && m.includes("refund"));

  it("audit: [] and { sinks: [] } still warn (W3); audit: () => {} silences it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const approvals = { coordinator: createInMemoryApprovalCoordinator() };

    createAgentRuntime({ governance: defineGovernance({ registry: writeRegistry() }), audit: [], approvals });
    expect(w3Messages(warn)).toHaveLength(1);

    createAgentRuntime({ governance: defineGovernance({ registry: writeRegistry() }), audit: { sinks: [] }, approvals });
    expect(w3Messages(warn)).toHaveLength(2);

    createAgentRuntime({ governance: defineGovernance({ registry: writeRegistry() }), audit: () => {}, approvals });
    expect(w3Messages(warn)).toHaveLength(2);
  });

  it("now() never drives timers: a frozen clock still times out policies and attempts", async () => {
    const frozen = new Date("2020-01-01T00:00:00Z");
    const stuckPolicy = definePolicy("stuck", () => new Promise<PolicyDecision>(() => {}), { scope: { capabilities: { ids: ["gated"] } } });
    const hang = base.meta(agentMeta(meta())).handler(({ signal }) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))));
    const { runtime } = build({
      defs: { gated: counted().procedure, hang },
      policies: [stuckPolicy],
      now: () => frozen,
      defaults: { policyTimeoutMs: 15, timeoutMs: 15 },
    });
    expect(errorOf(await runtime.invoke("gated", undefined, { actor: dana, context: {} })).code).toBe("POLICY_FAILED");
    const timedOut = await runtime.invoke("hang", undefined, { actor: dana, context: {} });
    expect(timedOut.status).toBe("cancelled");
    expect(errorOf(timedOut).code).toBe("TIMEOUT");
  });

  it("now() never drives timers: a clock leaping an hour per read causes no timeout, and only durations follow it", async () => {
    let t = Date.parse("2020-01-01T00:00:00Z");
    const leaping = () => new Date((t += 3_600_000));
    const slowAllow = definePolicy("slow-allow", async () => {
      await delay(2);
      return allow();
    }, { phases: ["discovery", "invocation"] });
    const { runtime, ofType } = build({
      defs: { op: counted().procedure },
      policies: [slowAllow],
      now: leaping,
      defaults: { policyTimeoutMs: 1_000, timeoutMs: 1_000, discoveryBudgetMs: 1_000 },
    });
    expect((await runtime.describe("aiSdk", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["op"]);
    expect((await runtime.invoke("op", undefined, { actor: dana, context: {} })).status).toBe("completed");
    const [completed] = ofType("capability.completed");
    expect(completed!.data.durationMs).toBeGreaterThanOrEqual(3_600_000);
  });
});

describe("§15 item 5: deny details and first-deny precedence", () => {
  it("the first deny supplies the message and code; later denies are still recorded", async () => {
    const { runtime, ofType } = build({
      defs: { op: counted().procedure },
      policies: [definePolicy("first", () => deny("A", "First says no.")), definePolicy("second", () => deny("B", "Second says no."))],
    });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "POLICY_DENIED", publicMessage: "First says no.", details: { policy: "first", code: "A" } });
    expect(ofType("capability.denied")[0]?.data).toEqual({
      reason: "policy-denied",
      publicCode: "POLICY_DENIED",
      policyDecisions: [
        { policy: "first", type: "deny" },
        { policy: "second", type: "deny" },
      ],
    });
  });

  it("a deny without message uses the default public message and omits details.code", async () => {
    const { runtime } = build({ defs: { op: counted().procedure }, policies: [definePolicy("plain", () => deny())] });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error.publicMessage).toBe("The operation was denied by policy.");
    expect(error.details).toEqual({ policy: "plain" });
  });
});
