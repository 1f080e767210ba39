import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  type Actor,
  type AgentAuditEvent,
  type AgentMeta,
  type CapabilityRegistry,
} from "../../src/index.js";
import { collectingSink, manualClock, recordingTracer, type RecordedSpan } from "./execution-harness.js";

// Distinct sentinels per source, so a failure says which payload leaked.
const S_INPUT = "SENTINEL-INPUT-4f1c";
const S_OUTPUT = "SENTINEL-OUTPUT-9b2e";
const S_ERROR = "SENTINEL-ERROR-77ad";
const S_ACTOR = "SENTINEL-ACTOR-0c3d";
const S_CONTEXT = "SENTINEL-CONTEXT-5e6f";
const SENTINELS = [S_INPUT, S_OUTPUT, S_ERROR, S_ACTOR, S_CONTEXT];

const requester: Actor = { id: "dana", kind: "user", displayName: `Dana ${S_ACTOR}`, attributes: { email: `${S_ACTOR}@example.com`, roles: [S_ACTOR] } };
const approver: Actor = { id: "priya", kind: "user", displayName: `Priya ${S_ACTOR}`, attributes: { secret: S_ACTOR } };
const context = { session: S_CONTEXT };

const base = agentProcedure(os);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "A capability.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low", ...extra });
const noteInput = z.object({ note: z.string() });

let redactCalls: unknown[] = [];
let flakyCalls = 0;
const registry = createCapabilityRegistry({
  read: base
    .input(noteInput)
    .meta(agentMeta(meta()))
    .handler(({ input }) => ({ echoed: input.note, secret: S_OUTPUT })),
  redacted: base
    .input(noteInput)
    .meta(agentMeta(meta({
        retry: { maxAttempts: 1, backoffMs: 1 },
        redact: {
          output: (output) => {
            redactCalls.push(output);
            return { visible: (output as { visible: number }).visible };
          },
        },
      })))
    .handler(() => {
      flakyCalls++;
      if (flakyCalls === 1) throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true, cause: new Error(S_ERROR) });
      return { visible: 1, secret: S_OUTPUT };
    }),
  throws: base
    .input(noteInput)
    .meta(agentMeta(meta()))
    .handler(() => {
      throw new Error(`database said ${S_ERROR}`);
    }),
  throwsCapabilityError: base
    .input(noteInput)
    .meta(agentMeta(meta()))
    .handler(() => {
      throw new CapabilityError({ code: "EXECUTION_FAILED", cause: new Error(S_ERROR), details: undefined });
    }),
  typed: base
    .input(z.object({ amount: z.number() }))
    .meta(agentMeta(meta()))
    .handler(() => "never"),
  slow: base
    .input(noteInput)
    .meta(agentMeta(meta({ timeoutMs: 10 })))
    .handler(({ signal }) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error(S_ERROR))))),
  guarded: base
    .input(noteInput)
    .meta(agentMeta(meta({ policies: [definePolicy("inspect", (req) => ((req.input as { note: string }).note.includes("deny") ? deny("c", "Denied.") : allow())), definePolicy("fails", (req) => {
      if ((req.input as { note: string }).note.includes("fail")) throw new Error(S_ERROR);
      return allow();
    })] })))
    .handler(() => "ok"),
  refund: base
    .input(noteInput)
    .meta(agentMeta(meta({
        sideEffect: "write",
        risk: "high",
        approval: { required: true },
        redact: { output: (output) => ({ refunded: (output as { refunded: boolean }).refunded }) },
      })))
    .handler(({ input }) => ({ refunded: true, note: input.note, secret: S_OUTPUT })),
});

function evidenceRuntime(reg: CapabilityRegistry = registry, options: { verbose?: boolean } = {}) {
  const audit = collectingSink();
  const tracer = recordingTracer();
  const clock = manualClock();
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry: reg }),
    audit: { sinks: [audit.sink], verbose: options.verbose === true },
    tracing: tracer.adapter,
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    now: clock.now,
  });
  return { runtime, audit, tracer };
}

function expectNoSentinelInEvidence(events: AgentAuditEvent[], spans: RecordedSpan[]) {
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) {
    const json = JSON.stringify(event);
    for (const sentinel of SENTINELS) expect(json, `${event.type} leaks ${sentinel}`).not.toContain(sentinel);
    expect(Object.keys(event.actor).sort(), event.type).toEqual(["id", "kind"]);
  }
  for (const span of spans) {
    const text = JSON.stringify([span.startAttributes, span.attributes]);
    for (const sentinel of SENTINELS) expect(text, `${span.name} attributes leak ${sentinel}`).not.toContain(sentinel);
    for (const error of span.errors) {
      const shown = `${String((error as Error).message)} ${String((error as Error).stack)} ${JSON.stringify(error)}`;
      for (const sentinel of SENTINELS) expect(shown, `${span.name} recorded error leaks ${sentinel}`).not.toContain(sentinel);
    }
  }
}

describe("SI-10: no payloads in evidence", () => {
  it("SI-10: a completed run records no input, output, actor details or context", async () => {
    const { runtime, audit, tracer } = evidenceRuntime();
    const result = await runtime.invoke("read", { note: S_INPUT }, { actor: requester, context, surface: "aiSdk" });
    expect(result).toMatchObject({ status: "completed", output: { echoed: S_INPUT, secret: S_OUTPUT } });
    expect(audit.types()).toEqual(["capability.requested", "capability.started", "capability.completed"]);
    expect(audit.events.every((e) => e.actor.id === "dana" && e.actor.kind === "user")).toBe(true);
    expectNoSentinelInEvidence(audit.events, tracer.spans);
  });

  it("SI-10: failure runs (thrown error, CapabilityError cause, invalid input, timeout, policy deny and failure) record no payloads or causes", async () => {
    const { runtime, audit, tracer } = evidenceRuntime();
    const outcomes = [
      await runtime.invoke("throws", { note: S_INPUT }, { actor: requester, context }),
      await runtime.invoke("throwsCapabilityError", { note: S_INPUT }, { actor: requester, context }),
      await runtime.invoke("typed", { amount: S_INPUT }, { actor: requester, context }),
      await runtime.invoke("slow", { note: S_INPUT }, { actor: requester, context }),
      await runtime.invoke("guarded", { note: `deny ${S_INPUT}` }, { actor: requester, context }),
      await runtime.invoke("guarded", { note: `fail ${S_INPUT}` }, { actor: requester, context }),
      await runtime.invoke("read", { note: S_INPUT }, { actor: { ...requester, kind: "robot" } as never, context }),
    ];
    expect(outcomes.map((r) => (r.status === "failed" || r.status === "cancelled" ? r.error.code : r.status))).toEqual([
      "EXECUTION_FAILED",
      "EXECUTION_FAILED",
      "INPUT_INVALID",
      "TIMEOUT",
      "POLICY_DENIED",
      "POLICY_FAILED",
      "UNAUTHENTICATED",
    ]);
    // The public error carries no cause text either (SI-9 overlap); the cause stays on the server.
    expect(JSON.stringify(outcomes)).not.toContain(S_ERROR);
    expectNoSentinelInEvidence(audit.events, tracer.spans);
  });

  it("SI-10: approval-required, approve and resume record no payloads; actors and approvers are { id, kind }", async () => {
    const { runtime, audit, tracer } = evidenceRuntime();
    const pending = await runtime.invoke("refund", { note: S_INPUT }, { actor: requester, context, surface: "aiSdk", correlationId: "corr-1" });
    expect(pending.status).toBe("approval-required");
    if (pending.status !== "approval-required") return;
    // The record itself binds the input; only evidence must not hold it.
    expect(pending.approval.input).toEqual({ note: S_INPUT });
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver });
    const done = await runtime.resume(pending.approval.id, {
      context,
      expectedActor: { ...requester, attributes: { fresh: S_ACTOR } },
      correlationId: "corr-1",
    });
    expect(done).toMatchObject({ status: "completed", output: { refunded: true } });
    expect(JSON.stringify(done)).not.toContain(S_OUTPUT);
    expect(audit.types()).toEqual([
      "capability.requested",
      "capability.approval_requested",
      "capability.approved",
      "capability.started",
      "capability.completed",
    ]);
    const approved = audit.ofType("capability.approved")[0]!;
    expect(approved.actor).toEqual({ id: "priya", kind: "user" });
    expect(approved.data.approver).toEqual({ id: "priya", kind: "user" });
    expect(audit.ofType("capability.started")[0]!.actor).toEqual({ id: "dana", kind: "user" });
    expect(audit.ofType("capability.started")[0]!.data).toEqual({ attempt: 1, approvalId: pending.approval.id });
    expectNoSentinelInEvidence(audit.events, tracer.spans);
  });

  it("SI-10: an inline approval handler's decision records the approver as { id, kind } only", async () => {
    const audit = collectingSink();
    const tracer = recordingTracer();
    const runtime = createAgentRuntime({
      governance: defineGovernance({ registry }),
      audit: audit.sink,
      tracing: tracer.adapter,
      approvals: { handler: async () => ({ status: "approved", approver }) },
    });
    const result = await runtime.invoke("refund", { note: S_INPUT }, { actor: requester, context });
    expect(result.status).toBe("completed");
    expect(audit.ofType("capability.approved")[0]!.actor).toEqual({ id: "priya", kind: "user" });
    expectNoSentinelInEvidence(audit.events, tracer.spans);
  });

  it("SI-10: discovery records no actor details or context", async () => {
    const { runtime, audit, tracer } = evidenceRuntime();
    const tools = await runtime.describe("aiSdk", { actor: requester, context });
    expect(tools.length).toBeGreaterThan(0);
    expect(audit.types()).toEqual(["capabilities.discovered"]);
    const [event] = audit.ofType("capabilities.discovered");
    expect(event!.actor).toEqual({ id: "dana", kind: "user" });
    expect("executionId" in event!).toBe(false);
    expectNoSentinelInEvidence(audit.events, tracer.spans);
  });

  it("SI-10: capabilities.discovered is constant-size and names no ids unless verbose", async () => {
    const proc = () => base.meta(agentMeta(meta())).handler(() => "ok");
    const short = createCapabilityRegistry({ a: proc(), b: proc() });
    const long = createCapabilityRegistry({
      an_extraordinarily_long_capability_segment: { with_more_words_than_anyone_needs: proc() },
      another_extraordinarily_long_capability_segment: { with_even_more_words: proc() },
    });
    const actor: Actor = { id: "dana", kind: "user" };
    const shortRun = evidenceRuntime(short);
    const longRun = evidenceRuntime(long);
    await shortRun.runtime.describe("aiSdk", { actor, context: {} });
    await shortRun.runtime.describe("aiSdk", { actor, context: {}, scope: { ids: ["a"] } });
    await longRun.runtime.describe("aiSdk", { actor, context: {} });
    const events = [...shortRun.audit.events, ...longRun.audit.events];
    const lengths = events.map((e) => JSON.stringify(e).length);
    expect(new Set(lengths).size).toBe(1);
    for (const event of events) {
      const json = JSON.stringify(event);
      for (const id of [...short.ids(), ...long.ids()]) expect(json).not.toContain(`"${id}"`);
      expect("capabilityIds" in event.data).toBe(false);
    }
    expect(events.map((e) => (e.type === "capabilities.discovered" ? e.data.count : -1))).toEqual([2, 1, 2]);
  });

  it("SI-10: the discovery digest compares catalogs: equal for equal id sets, different otherwise", async () => {
    const proc = () => base.meta(agentMeta(meta())).handler(() => "ok");
    const ab = evidenceRuntime(createCapabilityRegistry({ a: proc(), b: proc() }));
    const ba = evidenceRuntime(createCapabilityRegistry({ b: proc(), a: proc() }));
    const actor: Actor = { id: "dana", kind: "user" };
    await ab.runtime.describe("aiSdk", { actor, context: {} });
    await ba.runtime.describe("aiSdk", { actor, context: {} });
    await ab.runtime.describe("aiSdk", { actor, context: {}, scope: { ids: ["b"] } });
    const digests = [...ab.audit.events, ...ba.audit.events].map((e) => (e.type === "capabilities.discovered" ? e.data.digest : ""));
    expect(digests[0]).toBe(digests[2]);
    expect(digests[1]).not.toBe(digests[0]);
  });

  it("SI-10: audit.verbose adds capabilityIds in registry order", async () => {
    const proc = () => base.meta(agentMeta(meta())).handler(() => "ok");
    const { runtime, audit } = evidenceRuntime(createCapabilityRegistry({ zeta: proc(), alpha: proc(), hidden: base.meta(agentMeta(meta({ expose: { mcp: true } }))).handler(() => "x") }), {
      verbose: true,
    });
    await runtime.describe("aiSdk", { actor: { id: "dana", kind: "user" }, context: {} });
    expect(audit.ofType("capabilities.discovered")[0]!.data).toMatchObject({ count: 2, surface: "aiSdk", capabilityIds: ["zeta", "alpha"] });
  });

  it("SI-10: redact.output applies once, after the final attempt, before the envelope", async () => {
    const { runtime, audit, tracer } = evidenceRuntime();
    redactCalls = [];
    flakyCalls = 0;
    const result = await runtime.invoke("redacted", { note: "x" }, { actor: requester, context });
    expect(result).toEqual({ status: "completed", executionId: result.executionId, output: { visible: 1 } });
    expect(flakyCalls).toBe(2);
    expect(redactCalls).toEqual([{ visible: 1, secret: S_OUTPUT }]);
    expect(JSON.stringify(result)).not.toContain(S_OUTPUT);
    expectNoSentinelInEvidence(audit.events, tracer.spans);
  });
});
