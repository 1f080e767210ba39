// SI-6 for inputs no snapshot can bind (issue 43, finding 4). Whenever anything looks at the input (an audit sink, an
// enforced or shadow policy, an approval), stage 5 takes one frozen snapshot of it; a cyclic or Proxy input used to
// answer INTERNAL_ERROR there (the walk recursed until the stack overflowed). Each input below must be refused with
// INPUT_INVALID naming where, never what, before any policy, approver or handler runs, after a number of its own reads
// (getters, toJSON calls, Proxy traps) linear in its size or in the walk's bounds. No clock is read.
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
  type AgentPolicy,
  type AgentRuntimeOptions,
  type ExecutionResult,
} from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { HOSTILE_INPUTS, hostileThrowable, nested, sharedLevels, type Hostile } from "./support/hostile-inputs.js";
import { base, dana, errorOf, meta, mo } from "./support/runtime.js";

// Runtimes without a sink warn that models reach writes unaudited, on purpose.
captureStartupWarnings(["W3"]);

type Ran = { handler: number; policies: number; approver: number };

/** What observes the input, each a reason for stage 5 to take the snapshot. */
const OBSERVERS: [string, (ran: Ran) => { policies?: AgentPolicy[]; shadowPolicies?: AgentPolicy[]; approval?: boolean; sink?: boolean }][] = [
  ["an audit sink", () => ({ sink: true })],
  ["an invocation policy", (ran) => ({ policies: [definePolicy("watch", () => (ran.policies++, allow()))] })],
  ["an execution policy", (ran) => ({ policies: [definePolicy("watch-exec", () => (ran.policies++, allow()), { phases: ["execution"] })] })],
  ["a shadow policy", (ran) => ({ shadowPolicies: [definePolicy("shadow-watch", () => (ran.policies++, allow()))] })],
  ["a required approval", () => ({ approval: true, sink: true })],
];

function app(observer: (typeof OBSERVERS)[number][1], schema?: z.ZodType) {
  const ran: Ran = { handler: 0, policies: 0, approver: 0 };
  const seen = observer(ran);
  const agent = base.meta(agentMeta(meta({ approval: { required: seen.approval === true } })));
  const op = (schema === undefined ? agent : agent.input(schema)).handler(() => (ran.handler++, "ran"));
  const events: AgentAuditEvent[] = [];
  const options: Omit<AgentRuntimeOptions, "governance"> = {
    ...(seen.sink ? { audit: (event: AgentAuditEvent) => void events.push(event) } : {}),
    approvals: { handler: async () => (ran.approver++, { status: "approved", approver: mo }) },
  };
  const governance = defineGovernance({ registry: createCapabilityRegistry({ op }), policies: seen.policies ?? [], shadowPolicies: seen.shadowPolicies ?? [] });
  return { runtime: createAgentRuntime({ ...options, governance }), ran, events };
}

async function expectRefused(result: ExecutionResult, hostile: Hostile, ran: Ran): Promise<void> {
  const error = errorOf(result);
  expect(error.code).toBe("INPUT_INVALID");
  const issues = (error.details as { issues: { path: string[]; message: string }[] }).issues;
  expect(issues).toHaveLength(1);
  if (hostile.path !== undefined) expect(issues[0]!.path).toEqual(hostile.path);
  // What crosses to a model: the fixed message and the keys, never a value nor the cause's text (SI-9).
  expect(JSON.stringify(error.toJSON())).not.toMatch(/getter|toJSON"|trap|amount":1/);
  expect(ran).toEqual({ handler: 0, policies: 0, approver: 0 });
  expect(hostile.reads()).toBeLessThanOrEqual(hostile.maxReads);
}

describe("unrepresentable input is refused at stage 5 with INPUT_INVALID (SI-6)", () => {
  for (const [observerName, observer] of OBSERVERS) {
    describe(`without an input schema, observed by ${observerName}`, () => {
      it.each(HOSTILE_INPUTS)(`SI-6: %s`, async (_name, make) => {
        const { runtime, ran } = app(observer);
        const hostile = make();
        const result = await runtime.invoke("op", hostile.input, { actor: dana, context: {} });
        await expectRefused(result, hostile, ran);
      });
    });
  }

  describe("under a schema that passes the value through (z.object({ v: z.any() }))", () => {
    it.each(HOSTILE_INPUTS)("SI-6: %s", async (_name, make) => {
      const { runtime, ran } = app(OBSERVERS[1]![1], z.object({ v: z.any() }));
      const hostile = make();
      const result = await runtime.invoke("op", { v: hostile.input }, { actor: dana, context: {} });
      await expectRefused(result, { ...hostile, path: hostile.path === undefined ? undefined : ["v", ...hostile.path] }, ran);
    });
  });

  it("SI-6: the refusal is audited as a stage-5 failure, with no policy decision and no input hash", async () => {
    const { runtime, events } = app(OBSERVERS[0]![1]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    errorOf(await runtime.invoke("op", cyclic, { actor: dana, context: {} }));
    await runtime.drainAudit();
    expect(events.map((e) => e.type)).toEqual(["capability.requested", "capability.failed"]);
    expect(events[1]!.data).toMatchObject({ code: "INPUT_INVALID", stage: "input-validation" });
    expect(events.every((e) => e.inputHash === undefined)).toBe(true);
  });

  it("SI-6: a value shared by 48 levels, twice each (2⁴⁸ positions written out), is refused within the value budget", async () => {
    const { runtime, ran } = app(OBSERVERS[1]![1]);
    const hostile = sharedLevels();
    await expectRefused(await runtime.invoke("op", hostile.input, { actor: dana, context: {} }), hostile, ran);
  });

  it("SI-6: a hidden capability answers an unrepresentable input exactly like an unknown one (SI-8)", async () => {
    const hides = definePolicy("hides", () => ({ type: "hide" as const }), { phases: ["discovery"] });
    const op = base.meta(agentMeta(meta())).handler(() => "ran");
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ op }), policies: [hides] }), audit: () => {} });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const hidden = errorOf(await runtime.invoke("op", cyclic, { actor: dana, context: {} }));
    const unknown = errorOf(await runtime.invoke("nope", cyclic, { actor: dana, context: {} }));
    expect(hidden.toJSON()).toEqual(unknown.toJSON());
  });

  it("SI-6: inputs at the bounds pass: 999 levels of nesting, and shared (not cyclic) values", async () => {
    const { runtime, ran } = app(OBSERVERS[1]![1]);
    const shared = { n: 1 };
    for (const input of [nested(999, "object"), { deep: nested(998, "array") }, { a: shared, b: [shared, shared] }]) {
      expect(await runtime.invoke("op", input, { actor: dana, context: {} })).toMatchObject({ status: "completed", output: "ran" });
    }
    expect(ran.handler).toBe(3);
  });
});

describe("the approval gate never serializes more than the bounds allow (SI-5)", () => {
  // A class instance is shared by the snapshot, not walked; its toJSON runs when the hash is taken.
  class Receipt {
    constructor(private readonly body: () => unknown) {}
    toJSON(): unknown {
      return this.body();
    }
  }

  it("SI-5: a class instance whose toJSON returns 2⁴⁸ shared positions answers APPROVAL_UNSERIALIZABLE_INPUT within the value budget", async () => {
    const { runtime, ran } = app(OBSERVERS[4]![1]);
    const shared = sharedLevels();
    const result = await runtime.invoke("op", { receipt: new Receipt(() => shared.input) }, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_UNSERIALIZABLE_INPUT");
    expect(ran).toEqual({ handler: 0, policies: 0, approver: 0 });
    expect(shared.reads()).toBeLessThanOrEqual(shared.maxReads);
  });

  it("SI-5: a class instance whose toJSON throws a Proxy whose every trap throws another answers APPROVAL_UNSERIALIZABLE_INPUT", async () => {
    const { runtime, ran } = app(OBSERVERS[4]![1]);
    const result = await runtime.invoke("op", { receipt: new Receipt(() => { throw hostileThrowable(); }) }, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("APPROVAL_UNSERIALIZABLE_INPUT");
    expect(ran).toEqual({ handler: 0, policies: 0, approver: 0 });
  });

  it("SI-5: with only an audit sink, the same input runs, audited without an input hash", async () => {
    const { runtime, ran, events } = app(OBSERVERS[0]![1]);
    const shared = sharedLevels();
    expect(await runtime.invoke("op", { receipt: new Receipt(() => shared.input) }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    await runtime.drainAudit();
    expect(ran.handler).toBe(1);
    expect(events.every((e) => e.inputHash === undefined)).toBe(true);
    expect(shared.reads()).toBeLessThanOrEqual(shared.maxReads);
  });

  it("SI-5: a raw input the schema trims, hiding 2⁴⁸ shared positions, still gets its approval request", async () => {
    const coordinator = createInMemoryApprovalCoordinator();
    const op = base
      .input(z.object({ amount: z.number() }))
      .meta(agentMeta(meta({ approval: { required: true } })))
      .handler(() => "ran");
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ op }) }), approvals: { coordinator }, audit: () => {} });
    const junk = sharedLevels();
    const result = await runtime.invoke("op", { amount: 5, junk: junk.input }, { actor: dana, context: {} });
    expect(result.status).toBe("approval-required");
    // The submitted copy is dropped (it has no bounded JSON form); resume falls back to the approved value.
    expect(junk.reads()).toBeLessThanOrEqual(junk.maxReads);
    if (result.status !== "approval-required") return;
    expect(result.approval.input).toEqual({ amount: 5 });
    expect(result.approval.submittedInput).toBeUndefined();
  });
});
