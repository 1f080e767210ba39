// Raised from the mutation run: resume's checks (docs/architecture/spec/core.md#core-r1–R12) on records and schedules the main suite did not
// reach: corrupted or drifting coordinator records, asynchronous schemas and policies, and policies that mutate input.
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import {
  agentMeta,
  allow,
  createInMemoryApprovalCoordinator,
  definePolicy,
  type AgentPolicy,
  type ApprovalCoordinator,
  type ApprovalRecord,
  type ExecutionResult,
} from "../../../src/index.js";
import { recordingTracer } from "../../runtime/execution-harness.js";
import { base, build, dana, errorOf, meta, priya } from "../../runtime/pipeline-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W1"]);

const START = Date.parse("2030-01-01T00:00:00.000Z");

function clock() {
  let t = START;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

/** A gated refund whose handler records what it ran with. */
function refund(schema: StandardSchemaV1 = z.object({ amount: z.number() })) {
  const ran: unknown[] = [];
  const procedure = base
    .input(schema as never)
    .meta(agentMeta(meta({ expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } })))
    .handler(({ input }) => (ran.push(input), { refunded: (input as { amount: number }).amount }));
  return { procedure, ran };
}

/** Runtime over an in-memory coordinator whose `get` answers can be rewritten by the test. */
function setup(options: { policies?: AgentPolicy[]; schema?: StandardSchemaV1; rewrite?: (record: ApprovalRecord) => ApprovalRecord; coordinatorNow?: () => Date } = {}) {
  const time = clock();
  const inner = createInMemoryApprovalCoordinator({ now: options.coordinatorNow ?? time.now });
  const coordinator: ApprovalCoordinator = {
    ...inner,
    get: async (id) => {
      const record = await inner.get(id);
      return record && options.rewrite ? options.rewrite(record) : record;
    },
  };
  const cap = refund(options.schema);
  const tracer = recordingTracer();
  const built = build({ defs: { refund: cap.procedure }, policies: options.policies, approvals: { coordinator }, now: time.now, tracing: tracer.adapter });
  return { ...built, inner, ran: cap.ran, time, tracer };
}

async function approvedId(runtime: ReturnType<typeof setup>["runtime"], input: unknown = { amount: 5 }): Promise<string> {
  const pending = (await runtime.invoke("refund", input, { actor: dana, context: {} })) as ExecutionResult;
  if (pending.status !== "approval-required") throw new Error(`expected a suspension, got ${pending.status}`);
  await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
  return pending.approval.id;
}

describe("resume R1: a caller without expectedActor", () => {
  it("SI-8: an unknown approval id is recorded under a well-formed anonymous caller, in the audit event and the span", async () => {
    const { runtime, ofType, tracer } = setup();
    const error = errorOf(await runtime.resume("apr_missing", { context: {} }));
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    const actor = ofType("capability.failed")[0]!.actor;
    expect(actor.kind).toBe("anonymous");
    expect(actor.id).toMatch(/^\S+$/);
    const [root] = tracer.named("agent.capability_call");
    expect(root!.startAttributes).toMatchObject({ "orpc_agent.actor_kind": "anonymous", "orpc_agent.actor_id": actor.id });
  });

  it("R1 and R2 with expectedActor: the failure is recorded under that stated actor, in the span as in the event (core.md §7)", async () => {
    const { runtime, ofType, tracer } = setup();
    const id = await approvedId(runtime);
    errorOf(await runtime.resume("apr_missing", { context: {}, expectedActor: priya }));
    errorOf(await runtime.resume(id, { context: {}, expectedActor: priya }));
    expect(ofType("capability.failed").map((e) => e.actor)).toEqual([priya, priya]);
    const roots = tracer.named("agent.capability_call").slice(-2);
    for (const root of roots) expect(root.startAttributes).toMatchObject({ "orpc_agent.actor_kind": "user", "orpc_agent.actor_id": "priya" });
  });
});

describe("resume with records a coordinator got wrong", () => {
  it("SI-7: a corrupted approved record (decision without approver) fails INTERNAL_ERROR instead of throwing", async () => {
    const { runtime, ran } = setup({ rewrite: (r) => (r.status === "approved" ? { ...r, decision: { ...r.decision!, approver: null as never } } : r) });
    const id = await approvedId(runtime);
    const result = await runtime.resume(id, { context: {} });
    expect(errorOf(result).code).toBe("INTERNAL_ERROR");
    expect(ran).toEqual([]);
  });

  it("SI-5: a stored input with no canonical form fails R5 even when the record has no hash to compare", async () => {
    const { runtime, ran, inner } = setup({ rewrite: (r) => ({ ...r, input: { amount: 5, sneak: () => 1 }, inputHash: undefined as never }) });
    const id = await approvedId(runtime);
    expect(errorOf(await runtime.resume(id, { context: {} })).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(ran).toEqual([]);
    expect((await inner.get(id))!.status).toBe("approved");
  });

  it("a record the coordinator reports expired is refused as expired, even while the runtime clock says otherwise", async () => {
    const coordinatorTime = clock();
    const { runtime, inner } = setup({ coordinatorNow: coordinatorTime.now });
    const pending = await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} });
    if (pending.status !== "approval-required") throw new Error("expected a suspension");
    coordinatorTime.advance(60 * 60_000); // the coordinator's clock runs an hour ahead of the runtime's
    expect((await inner.get(pending.approval.id))!.status).toBe("expired");
    expect(errorOf(await runtime.resume(pending.approval.id, { context: {} })).code).toBe("APPROVAL_EXPIRED");
  });
});

describe("resume R8 and R10 under asynchronous schemas and policies", () => {
  it("re-validates with an asynchronous schema and runs its parsed value's policies", async () => {
    const schema: StandardSchemaV1 = {
      "~standard": { version: 1, vendor: "mutation-async-resume", validate: async (value) => ({ value: { amount: (value as { amount: number }).amount, checked: true } }) },
    };
    const seen: unknown[] = [];
    const look = definePolicy("look", async (req) => (req.approval ? seen.push(req.input) : undefined, allow()));
    const { runtime, ran } = setup({ schema, policies: [look] });
    const id = await approvedId(runtime);
    const result = await runtime.resume(id, { context: {} });
    expect(result).toMatchObject({ status: "completed", output: { refunded: 5 } });
    expect(seen).toEqual([{ amount: 5, checked: true }]);
    expect(ran).toEqual([{ amount: 5, checked: true }]);
  });

  it("SI-6: an invocation policy mutating req.input at R10 fails closed and leaves the approval unconsumed", async () => {
    const mutate = definePolicy("mutate", (req) => {
      if (req.approval) (req.input as { amount: number }).amount = 1_000;
      return allow();
    });
    const { runtime, ran, inner } = setup({ policies: [mutate] });
    const id = await approvedId(runtime);
    expect(errorOf(await runtime.resume(id, { context: {} })).code).toBe("POLICY_FAILED");
    expect(ran).toEqual([]);
    expect((await inner.get(id))!.status).toBe("approved");
  });

  it("SI-6: an execution-only policy mutating req.input on resume fails closed before the procedure", async () => {
    const mutate = definePolicy("mutate", (req) => {
      (req.input as { amount: number }).amount = 1_000;
      return allow();
    }, { phases: ["execution"] });
    const { runtime, ran } = setup({ policies: [mutate] });
    const id = await approvedId(runtime);
    expect(errorOf(await runtime.resume(id, { context: {} })).code).toBe("POLICY_FAILED");
    expect(ran).toEqual([]);
  });

  it("opens no policy span when no invocation or execution policy applies (core.md §16)", async () => {
    const { runtime, tracer } = setup();
    const id = await approvedId(runtime);
    expect((await runtime.resume(id, { context: {} })).status).toBe("completed");
    expect(tracer.named("agent.policy_evaluation")).toEqual([]);
  });
});

describe("the default coordinator", () => {
  it("shares the runtime clock: decidedAt and expiry follow runtime `now`, not the wall clock", async () => {
    const time = clock();
    const cap = refund();
    const { runtime } = build({ defs: { refund: cap.procedure }, now: time.now });
    const pending = await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} });
    if (pending.status !== "approval-required") throw new Error("expected a suspension");
    time.advance(1_000);
    const decided = await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    expect(decided.decision!.decidedAt.getTime()).toBe(START + 1_000);
    time.advance(pending.approval.expiresAt.getTime() - START);
    const later = await runtime.invoke("refund", { amount: 6 }, { actor: dana, context: {} });
    if (later.status !== "approval-required") throw new Error("expected a suspension");
    time.advance(later.approval.expiresAt.getTime() - time.now().getTime() + 1);
    expect((await runtime.approvals.get(later.approval.id))!.status).toBe("expired");
  });
});
