// Property-based checks of policy combination (docs/architecture/spec/core.md#core-3-1, SI-7): any interleaving of synchronous, asynchronous,
// thenable, throwing, rejecting, timed-out and garbage-returning policies combines as error > deny > hide >
// require-approval > allow, records every stance in order, and fails closed — both in evaluatePolicyBatch itself
// and through a real runtime at stage 7 and stage 9.
import { os } from "@orpc/server";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
  type AgentPolicy,
  type PolicyDecisionRecord,
  type PolicyPhase,
  type PolicyRequest,
} from "../../src/index.js";
import { evaluatePolicyBatch } from "../../src/policy/evaluate-batch.js";

type Stance = "allow" | "deny" | "hide" | "require-approval";
type Mode = "sync" | "async" | "thenable";
type Failure =
  | "throw"
  | "reject"
  | "garbage"
  | "async-garbage"
  | "throwing-getter"
  | "then-getter-throws"
  | "then-method-throws"
  | "timeout";
type Behaviour =
  | { kind: "stance"; stance: Stance; mode: Mode; code?: string; message?: string; metadata?: boolean; approvalType?: string }
  | { kind: "shifty"; first: "deny" | "hide"; mode: Mode }
  | { kind: "fail"; how: Failure; garbage: unknown };

/** Shapes that are none of the four decisions (docs/architecture/spec/core.md#core-3-1 step 3). */
const GARBAGE: unknown[] = [
  undefined,
  null,
  42,
  "allow",
  [],
  { type: "ALLOW" },
  { type: "allow", metadata: "not-a-record" },
  { type: "allow", metadata: [1] },
  { type: "deny", code: 7 },
  { type: "deny", message: { text: "x" } },
  { type: "require-approval" },
  { type: "require-approval", reason: "" },
  { type: "require-approval", reason: "r", expiresInMs: -1 },
  { type: "require-approval", reason: "r", expiresInMs: Number.NaN },
  { type: "require-approval", reason: "r", approvalType: "" },
  new Error("a thrown-looking value"),
];

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    kind: fc.constant("stance" as const),
    stance: fc.constantFrom<Stance>("allow", "deny", "hide", "require-approval"),
    mode: fc.constantFrom<Mode>("sync", "async", "thenable"),
    code: fc.option(fc.constantFrom("OVER_LIMIT", "NOPE"), { nil: undefined }),
    message: fc.option(fc.constantFrom("Ask a manager.", "Not today."), { nil: undefined }),
    metadata: fc.boolean(),
    approvalType: fc.option(fc.constantFrom("manager", "finance"), { nil: undefined }),
  }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("shifty" as const), first: fc.constantFrom("deny" as const, "hide" as const), mode: fc.constantFrom<Mode>("sync", "async") }) },
  { weight: 3, arbitrary: fc.record({
    kind: fc.constant("fail" as const),
    how: fc.constantFrom<Failure>("throw", "reject", "garbage", "async-garbage", "throwing-getter", "then-getter-throws", "then-method-throws", "timeout"),
    garbage: fc.constantFrom(...GARBAGE),
  }) },
);

/** At most one timed-out policy per batch: each one costs the whole deadline. */
const behaviours = fc
  .array(behaviour, { minLength: 1, maxLength: 7 })
  .filter((list) => list.filter((b) => b.kind === "fail" && b.how === "timeout").length <= 1);

function decisionOf(b: Extract<Behaviour, { kind: "stance" }>, index: number): Record<string, unknown> {
  switch (b.stance) {
    case "allow":
      return b.metadata ? { type: "allow", metadata: { index } } : { type: "allow" };
    case "deny": {
      const d: Record<string, unknown> = { type: "deny" };
      if (b.code !== undefined) d.code = b.code;
      if (b.message !== undefined) d.message = b.message;
      return d;
    }
    case "hide":
      return { type: "hide" };
    case "require-approval": {
      const d: Record<string, unknown> = { type: "require-approval", reason: `Reason ${index}.` };
      if (b.approvalType !== undefined) d.approvalType = b.approvalType;
      return d;
    }
  }
}

function deliver(value: unknown, mode: Mode): unknown {
  if (mode === "sync") return value;
  if (mode === "async") return Promise.resolve(value);
  return { then: (resolve: (v: unknown) => void) => resolve(value) };
}

/** A value whose `type` reads `first` once, then "allow" forever: checking and combining must see the same read. */
function shiftyDecision(first: string): object {
  let reads = 0;
  return {
    get type() {
      reads++;
      return reads === 1 ? first : "allow";
    },
  };
}

/** The policy function of one behaviour. `calls[i]` counts its evaluations. */
function evaluatorOf(b: Behaviour, index: number, calls: number[]): (req: PolicyRequest) => unknown {
  return () => {
    calls[index]!++;
    if (b.kind === "stance") return deliver(decisionOf(b, index), b.mode);
    if (b.kind === "shifty") return deliver(shiftyDecision(b.first), b.mode);
    switch (b.how) {
      case "throw":
        throw new Error(`SENTINEL_POLICY_${index}`);
      case "reject":
        return Promise.reject(new Error(`SENTINEL_POLICY_${index}`));
      case "garbage":
        return b.garbage;
      case "async-garbage":
        return Promise.resolve(b.garbage);
      case "throwing-getter":
        return { get type(): string { throw new Error(`SENTINEL_POLICY_${index}`); } };
      case "then-getter-throws":
        return { get then(): unknown { throw new Error(`SENTINEL_POLICY_${index}`); } };
      case "then-method-throws":
        return { then() { throw new Error(`SENTINEL_POLICY_${index}`); } };
      case "timeout":
        return new Promise(() => {});
    }
  };
}

type Expected = {
  records: PolicyDecisionRecord[];
  verdict: "allow" | "deny" | "hide" | "require-approval" | "error";
  /** How many leading policies are evaluated at all. */
  evaluated: number;
  firstDeny?: { index: number; code?: string; message?: string };
  reasons: string[];
};

/** The model of docs/architecture/spec/core.md#core-3-1: every stance in order; a timeout spends the deadline, so the next records "error" unevaluated and the batch stops. */
function expected(list: Behaviour[], names: string[]): Expected {
  const records: PolicyDecisionRecord[] = [];
  const timeoutAt = list.findIndex((b) => b.kind === "fail" && b.how === "timeout");
  const evaluated = timeoutAt === -1 ? list.length : timeoutAt + 1;
  const recorded = timeoutAt === -1 ? list.length : Math.min(list.length, timeoutAt + 2);
  let firstDeny: Expected["firstDeny"];
  const reasons: string[] = [];
  for (let i = 0; i < recorded; i++) {
    const b = list[i]!;
    if (i >= evaluated || b.kind === "fail") {
      records.push({ policy: names[i]!, type: "error" });
    } else if (b.kind === "shifty") {
      records.push({ policy: names[i]!, type: b.first });
      if (b.first === "deny" && firstDeny === undefined) firstDeny = { index: i };
    } else {
      const rec: PolicyDecisionRecord = { policy: names[i]!, type: b.stance };
      if (b.stance === "allow" && b.metadata) rec.metadata = { index: i };
      records.push(rec);
      if (b.stance === "deny" && firstDeny === undefined) {
        firstDeny = { index: i };
        if (b.code !== undefined) firstDeny.code = b.code;
        if (b.message !== undefined) firstDeny.message = b.message;
      }
      if (b.stance === "require-approval") reasons.push(`Reason ${i}.`);
    }
  }
  const types = new Set(records.map((r) => r.type));
  const verdict = types.has("error") ? "error" : types.has("deny") ? "deny" : types.has("hide") ? "hide" : types.has("require-approval") ? "require-approval" : "allow";
  return { records, verdict, evaluated, firstDeny, reasons };
}

const TIMEOUT_MS = 30;
const hasTimeout = (list: Behaviour[]) => list.some((b) => b.kind === "fail" && b.how === "timeout");
const namesOf = (list: Behaviour[]) => list.map((b, i) => `p${i}-${b.kind === "fail" ? b.how : b.kind === "shifty" ? "shifty" : `${b.stance}-${b.mode}`}`);

const request: PolicyRequest = {
  phase: "invocation",
  capability: { id: "probe.run", meta: { description: "Probe.", expose: { direct: true }, sideEffect: "read", risk: "low" } },
  surface: "direct",
  actor: { id: "u_dana", kind: "user" },
  context: {},
  input: {},
};

describe("policy combination properties (core.md §3.1)", () => {
  it("SI-7: evaluatePolicyBatch records every stance in order and combines error > deny > hide > require-approval > allow", async () => {
    await fc.assert(
      fc.asyncProperty(behaviours, async (list) => {
        const names = namesOf(list);
        const calls = list.map(() => 0);
        const policies: AgentPolicy[] = list.map((b, i) => ({ name: names[i]!, phases: ["invocation"], evaluate: evaluatorOf(b, i, calls) as AgentPolicy["evaluate"] }));
        const want = expected(list, names);
        let batch: ReturnType<typeof evaluatePolicyBatch> | undefined;
        // The batch itself never throws or rejects, whatever a policy does.
        expect(() => (batch = evaluatePolicyBatch(policies, request, hasTimeout(list) ? TIMEOUT_MS : 10_000))).not.toThrow();
        const result = await batch!;
        expect(result.records).toEqual(want.records);
        expect(result.verdict).toBe(want.verdict);
        expect(calls).toEqual(list.map((_, i) => (i < want.evaluated ? 1 : 0)));
        if (want.verdict === "deny") {
          const first = want.firstDeny!;
          const deny: Record<string, unknown> = { policy: names[first.index] };
          if (first.code !== undefined) deny.code = first.code;
          if (first.message !== undefined) deny.message = first.message;
          expect(result.deny).toEqual(deny);
        }
        if (want.verdict === "require-approval") expect(result.approvals.map((a) => a.reason)).toEqual(want.reasons);
        if (want.verdict === "error") expect(result.approvals).toEqual([]);
      }),
      { numRuns: 250 },
    );
  });

  it("SI-7: at discovery, any interleaving decides only its own capability; describe itself never rejects", async () => {
    const base = agentProcedure(os);
    const meta = (description: string) => agentMeta({ description, expose: { mcp: true }, sideEffect: "read" as const, risk: "low" as const, tags: [description] });
    const registry = createCapabilityRegistry({
      first: base.meta(meta("first")).handler(() => 1),
      probe: base.meta(meta("probe")).handler(() => 2),
      last: base.meta(meta("last")).handler(() => 3),
    });
    await fc.assert(
      fc.asyncProperty(behaviours, async (list) => {
        const names = namesOf(list);
        const calls = list.map(() => 0);
        // Scoped to the probe alone; its neighbours each carry an allowing policy evaluated concurrently.
        const policies = [
          ...list.map((b, i) => definePolicy(names[i]!, evaluatorOf(b, i, calls) as AgentPolicy["evaluate"], { phases: ["discovery"], scope: { capabilities: { ids: ["probe"] } } })),
          definePolicy("neighbours", async () => ({ type: "allow" }), { phases: ["discovery"], scope: { capabilities: { ids: ["first", "last"] } } }),
        ];
        const runtime = createAgentRuntime({
          governance: defineGovernance({ registry, policies }),
          approvals: { coordinator: createInMemoryApprovalCoordinator() },
          defaults: { policyTimeoutMs: hasTimeout(list) ? TIMEOUT_MS : 10_000 },
        });
        const want = expected(list, names);
        const listed = await runtime.describe("mcp", { actor: request.actor, context: {} });
        const visible = want.verdict === "allow" || want.verdict === "require-approval";
        expect(listed.map((d) => d.id)).toEqual(visible ? ["first", "probe", "last"] : ["first", "last"]);
        if (visible) expect(listed[1]!.requiresApproval).toBe(want.verdict === "require-approval" ? true : undefined);
      }),
      { numRuns: 120 },
    );
  });

  for (const phase of ["invocation", "execution"] as const satisfies readonly PolicyPhase[]) {
    it(`SI-7: a real runtime fails closed at the ${phase} phase under any interleaving; the procedure runs only on allow`, async () => {
      let executions = 0;
      const base = agentProcedure(os);
      const registry = createCapabilityRegistry({
        probe: {
          run: base
            .input(z.object({ amount: z.number() }))
            .meta(agentMeta({ description: "Probe.", expose: { direct: true }, sideEffect: "read", risk: "low" }))
            .handler(() => {
              executions++;
              return { ran: true };
            }),
        },
      });
      const unknownShape = JSON.stringify(
        await createAgentRuntime({ governance: defineGovernance({ registry }) })
          .invoke("probe.nope", {}, { actor: request.actor, context: {} })
          .then((r) => (r.status === "failed" ? r.error : undefined)),
      );

      await fc.assert(
        fc.asyncProperty(behaviours, async (list) => {
          const names = namesOf(list);
          const calls = list.map(() => 0);
          const policies = list.map((b, i) => definePolicy(names[i]!, evaluatorOf(b, i, calls) as AgentPolicy["evaluate"], { phases: [phase] }));
          const events: AgentAuditEvent[] = [];
          const runtime = createAgentRuntime({
            governance: defineGovernance({ registry, policies }),
            approvals: { coordinator: createInMemoryApprovalCoordinator() },
            audit: (event) => void events.push(event),
            defaults: { policyTimeoutMs: hasTimeout(list) ? TIMEOUT_MS : 10_000 },
          });
          const want = expected(list, names);
          const before = executions;
          const result = await runtime.invoke("probe.run", { amount: 5 }, { actor: request.actor, context: {} });
          const ran = executions - before;
          const terminal = events.filter((e) => ["capability.denied", "capability.failed", "capability.completed", "capability.cancelled"].includes(e.type));

          switch (want.verdict) {
            case "allow":
              expect(result.status).toBe("completed");
              expect(ran).toBe(1);
              break;
            case "require-approval":
              expect(result.status).toBe("approval-required");
              if (result.status === "approval-required") expect(result.approval.reasons).toEqual(want.reasons);
              expect(ran).toBe(0);
              break;
            default: {
              expect(ran).toBe(0);
              expect(result.status).toBe("failed");
              if (result.status !== "failed") return;
              const reason = { error: "policy-failed", deny: "policy-denied", hide: "hidden" }[want.verdict];
              const code = { error: "POLICY_FAILED", deny: "POLICY_DENIED", hide: "CAPABILITY_NOT_FOUND" }[want.verdict];
              expect(result.error.code).toBe(code);
              expect(terminal).toHaveLength(1);
              expect(terminal[0]).toMatchObject({ type: "capability.denied", data: { reason, publicCode: code, policyDecisions: want.records } });
              // SI-7/SI-9: a failing policy is concealed; SI-8: a hide is byte-identical to an unknown id.
              if (want.verdict === "error") expect(result.error.toJSON()).toEqual({ code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false });
              if (want.verdict === "hide") expect(JSON.stringify(result.error)).toBe(unknownShape);
              if (want.verdict === "deny" && want.firstDeny?.message !== undefined) expect(result.error.publicMessage).toBe(want.firstDeny.message);
              expect(JSON.stringify(result)).not.toMatch(/SENTINEL_POLICY/);
            }
          }
        }),
        { numRuns: 120 },
      );
    });
  }
});
