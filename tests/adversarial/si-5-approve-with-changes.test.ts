// SI-4 / SI-5 / SI-6 / SI-8 / SI-13: approve with changes (issue 50, item 5). An approver's edit re-binds the approval:
// validated by the capability's schema, policies re-run on it, its hash recorded beside the original's; what executes
// on resume is the edited value, read once and hash-bound, consumed once. An edit can never widen the call.
import { allow, createInMemoryApprovalCoordinator, definePolicy, deny, requireApproval, type Actor, type AgentPolicy, type ApprovalCoordinator, type ApprovalRecord } from "@orpc-agent/core";
import { hashCanonicalInputAsync as hashCanonicalInput } from "../../packages/core/src/approvals/hash.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { tamperable } from "./support/tamperable.js";

// The custom (tamperable) store without a seal is warned about at startup, on purpose.
captureStartupWarnings(["W4"]);

const priya: Actor = { id: "priya", kind: "user" };
const KEY = { id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" };
const HOUR = 3_600_000;

type Refund = { customerId: string; amount: number };

/** A refund needing a manager; a policy denying above 1,000 and demanding a CFO above 500. */
function refundApp(options: { schema?: z.ZodType; seal?: boolean; coordinator?: ApprovalCoordinator; quorum?: number; policies?: AgentPolicy[] } = {}) {
  const ran: unknown[] = [];
  const schema = options.schema ?? z.object({ customerId: z.string(), amount: z.number().int().positive() });
  const refund = base
    .input(schema)
    .meta({
      agent: meta({
        approval: { required: true, type: "manager", ...(options.quorum === undefined ? {} : { quorum: options.quorum }), grants: { maxUses: 10, maxTtlMs: HOUR, scopes: ["actor"] } },
      }),
    })
    .handler(({ input }) => {
      ran.push(input);
      return "refunded";
    });
  const limits = definePolicy("refund-limits", (req) => {
    const amount = (req.input as { amount?: number } | undefined)?.amount ?? 0;
    if (amount > 1_000) return deny("REFUND_TOO_LARGE", "Refunds above 1,000 are not allowed.");
    if (amount > 500) return requireApproval({ reason: "Refund above 500", approvalType: "cfo" });
    return allow();
  });
  const { runtime, events } = build({
    defs: { refund },
    policies: [limits, ...(options.policies ?? [])],
    approvals: { ...(options.coordinator === undefined ? {} : { coordinator: options.coordinator }), ...(options.seal ? { seal: { keys: [KEY] } } : {}) },
  });
  const request = async (input: unknown = { customerId: "c_ada", amount: 320 }) => approvalOf(await runtime.invoke("refund", input, { actor: dana, context: {} }));
  return { runtime, events, ran, request };
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; details?: unknown };
  }
  throw new Error("expected the decision to be refused");
}

describe("approve with changes: what an edit may not do (SI-4, SI-13)", () => {
  it("SI-4: an edit a policy denies refuses the decision and leaves the record pending", async () => {
    const app = refundApp();
    const approval = await app.request();
    const error = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 5_000 } }));
    expect(error.code).toBe("POLICY_DENIED");
    expect((await app.runtime.approvals.get(approval.id))?.status).toBe("pending");
    expect(app.events.filter((e) => e.type === "capability.approved")).toEqual([]);
  });

  it("SI-4: an edit that needs an approval type the request did not ask for is refused (no widening)", async () => {
    const app = refundApp();
    const approval = await app.request();
    expect(approval.types).toEqual(["manager"]);
    const error = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 800 } }));
    expect(error.code).toBe("POLICY_DENIED");
    expect((await app.runtime.approvals.get(approval.id))?.status).toBe("pending");
  });

  it("SI-6: an edit the schema refuses is INPUT_INVALID, the record pending", async () => {
    const app = refundApp();
    const approval = await app.request();
    const error = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: -5 } }));
    expect(error.code).toBe("INPUT_INVALID");
    expect((await app.runtime.approvals.get(approval.id))?.status).toBe("pending");
  });

  it("SI-4: an edit on a rejection is refused, and nothing is rejected", async () => {
    const app = refundApp();
    const approval = await app.request();
    const error = await refusal(app.runtime.approvals.decide(approval.id, { status: "rejected", approver: priya, input: { customerId: "c_ada", amount: 10 } }));
    expect(error.code).toBe("INPUT_INVALID");
    expect((await app.runtime.approvals.get(approval.id))?.status).toBe("pending");
  });

  it("SI-13: an edit with a grant is refused, no grant issued and the record pending", async () => {
    const app = refundApp();
    const approval = await app.request();
    const error = await refusal(
      app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 10 }, grant: { uses: 2, ttlMs: HOUR, scope: "actor" } }),
    );
    expect(error.code).toBe("INPUT_INVALID");
    expect((await app.runtime.approvals.get(approval.id))?.status).toBe("pending");
    expect(await app.runtime.grants.list()).toEqual([]);
  });

  it("SI-4: an edit on a quorum record is refused, first vote or last: every approver would approve another input", async () => {
    const app = refundApp({ quorum: 2 });
    const approval = await app.request();
    const first = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 10 } }));
    expect(first.code).toBe("INPUT_INVALID");
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya });
    const last = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: mo, input: { customerId: "c_ada", amount: 10 } }));
    expect(last.code).toBe("INPUT_INVALID");
    const record = await app.runtime.approvals.get(approval.id);
    expect(record?.status).toBe("pending");
    expect(record?.approvals?.map((v) => v.approver.id)).toEqual(["priya"]);
  });

  it("SI-5: a caller's own inputHash is never stored: without an input it is refused, with one it is replaced", async () => {
    const app = refundApp();
    const approval = await app.request();
    const alone = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, inputHash: approval.inputHash }));
    expect(alone.code).toBe("INPUT_INVALID");
    const decided = await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 }, inputHash: "0".repeat(64) });
    expect(decided.decision?.inputHash).toBe(await hashCanonicalInput({ customerId: "c_ada", amount: 80 }));
  });
});

describe("approve with changes: what executes (SI-5, SI-6)", () => {
  it("SI-5: an inline handler returning an edited input fails closed: neither the edit nor the original runs", async () => {
    const ran: unknown[] = [];
    const refund = base
      .input(z.object({ customerId: z.string(), amount: z.number() }))
      .meta({ agent: meta({ approval: { required: true } }) })
      .handler(({ input }) => void ran.push(input));
    const { runtime } = build({ defs: { refund }, approvals: { handler: async () => ({ status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } }) } });
    const result = await runtime.invoke("refund", { customerId: "c_ada", amount: 320 }, { actor: dana, context: {} });
    expect(errorOf(result).code).toBe("INTERNAL_ERROR");
    expect(ran).toEqual([]);
  });

  it("SI-5: the requester's resume executes the edited input once, the result names what changed, the audit both hashes", async () => {
    const app = refundApp();
    const approval = await app.request();
    const decided = await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } });
    const edited = await hashCanonicalInput({ customerId: "c_ada", amount: 80 });
    // The new hash beside the old: the request is what was asked, the decision what was approved.
    expect(decided.input).toEqual({ customerId: "c_ada", amount: 320 });
    expect(decided.inputHash).toBe(approval.inputHash);
    expect(decided.decision).toMatchObject({ input: { customerId: "c_ada", amount: 80 }, inputHash: edited });
    const approved = app.events.find((e) => e.type === "capability.approved");
    expect(approved?.inputHash).toBe(approval.inputHash);
    expect((approved?.data as { editedInputHash?: string }).editedInputHash).toBe(edited);

    const result = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(result).toMatchObject({ status: "completed", output: "refunded", approvedWithChanges: { changed: ["/amount"] } });
    expect(app.ran).toEqual([{ customerId: "c_ada", amount: 80 }]);
    // The execution is audited under the hash of what ran.
    expect(app.events.find((e) => e.type === "capability.completed")?.inputHash).toBe(edited);
    const again = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(errorOf(again).code).toBe("APPROVAL_CONSUMED");
    expect(app.ran).toHaveLength(1);
  });

  it("SI-5: an approval without changes resumes as before, with no approvedWithChanges", async () => {
    const app = refundApp();
    const approval = await app.request();
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya });
    const result = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(result.status).toBe("completed");
    expect(result).not.toHaveProperty("approvedWithChanges");
    expect(app.ran).toEqual([{ customerId: "c_ada", amount: 320 }]);
  });

  it("SI-6: with a transforming schema (trim, default) the hash binds the validated edit, and that is what executes", async () => {
    const schema = z.object({ customerId: z.string().trim(), amount: z.number(), note: z.string().default("none") });
    const app = refundApp({ schema });
    const approval = await app.request({ customerId: "c_ada", amount: 320 });
    const decided = await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "  c_ada  ", amount: 80 } });
    const executes = { customerId: "c_ada", amount: 80, note: "none" };
    expect(decided.decision?.input).toEqual(executes);
    expect(decided.decision?.inputHash).toBe(await hashCanonicalInput(executes));
    const result = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(result.status).toBe("completed");
    expect(app.ran).toEqual([executes]);
  });

  it("SI-6: an edit the schema would change again on resume (a non-idempotent transform) is refused at decide", async () => {
    const schema = z.object({ customerId: z.string(), amount: z.number().transform((n) => n * 100) });
    const app = refundApp({ schema });
    const approval = await app.request({ customerId: "c_ada", amount: 3 });
    const error = await refusal(app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 2 } }));
    expect(error.code).toBe("INPUT_INVALID");
    expect((await app.runtime.approvals.get(approval.id))?.status).toBe("pending");
  });

  it("SI-6: an edit with a getter is read once: the policy, the hash and the handler see one amount", async () => {
    const app = refundApp();
    const approval = await app.request();
    let reads = 0;
    const input = {
      customerId: "c_ada",
      get amount() {
        return ++reads === 1 ? 80 : 5_000;
      },
    };
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input });
    await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(reads).toBe(1);
    expect(app.ran).toEqual([{ customerId: "c_ada", amount: 80 }]);
  });

  it("SI-6: an edit behind a Proxy is read once, and a revoked Proxy is INPUT_INVALID", async () => {
    const app = refundApp();
    const approval = await app.request();
    let reads = 0;
    const input = new Proxy({ customerId: "c_ada", amount: 80 } as Refund, {
      get: (target, key, receiver) => {
        if (key === "amount") return ++reads === 1 ? 80 : 5_000;
        return Reflect.get(target, key, receiver);
      },
    });
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input });
    await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(app.ran).toEqual([{ customerId: "c_ada", amount: 80 }]);

    const other = await app.request();
    const { proxy, revoke } = Proxy.revocable({ customerId: "c_ada", amount: 80 }, {});
    revoke();
    const error = await refusal(app.runtime.approvals.decide(other.id, { status: "approved", approver: priya, input: proxy }));
    expect(error.code).toBe("INPUT_INVALID");
    expect((await app.runtime.approvals.get(other.id))?.status).toBe("pending");
  });

  it("SI-5: a store that rewrites the edited input after the decision fails closed at resume, unconsumed", async () => {
    const store = tamperable(createInMemoryApprovalCoordinator());
    const app = refundApp({ coordinator: store.coordinator });
    const approval = await app.request();
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } });
    store.set((record: ApprovalRecord) => ({ ...record, decision: { ...record.decision!, input: { customerId: "c_mallory", amount: 80 } } }));
    const result = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(errorOf(result).code).toBe("APPROVAL_INPUT_MISMATCH");
    expect(app.ran).toEqual([]);
    expect((await store.inner.get(approval.id))?.status).toBe("approved");
  });

  it("SI-8: with a seal, a store that rewrites the edit together with its hash, or drops the edit, reads as unknown", async () => {
    const store = tamperable(createInMemoryApprovalCoordinator());
    const app = refundApp({ coordinator: store.coordinator, seal: true });
    const approval = await app.request();
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_ada", amount: 80 } });
    const forged = { customerId: "c_mallory", amount: 80 };
    const forgedHash = await hashCanonicalInput(forged);
    store.set((record) => ({ ...record, decision: { ...record.decision!, input: forged, inputHash: forgedHash! } }));
    expect(errorOf(await app.runtime.resume(approval.id, { context: {}, expectedActor: dana })).code).toBe("INTERNAL_ERROR");
    store.set((record) => {
      const { input: _input, inputHash: _hash, ...decision } = record.decision!;
      return { ...record, decision };
    });
    expect(errorOf(await app.runtime.resume(approval.id, { context: {}, expectedActor: dana })).code).toBe("INTERNAL_ERROR");
    expect(app.ran).toEqual([]);
    store.set(undefined);
    const result = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(result.status).toBe("completed");
    expect(app.ran).toEqual([{ customerId: "c_ada", amount: 80 }]);
  });

  it("SI-5: resume re-runs the policies on the edited input with the requester's context (R10), refusing before consumption", async () => {
    const blocked = definePolicy("blocked-customers", (req) =>
      (req.context as { strict?: boolean } | undefined)?.strict === true && (req.input as Refund).customerId === "c_blocked" ? deny("BLOCKED", "Blocked customer.") : allow(),
    );
    const app = refundApp({ policies: [blocked] });
    const approval = await app.request();
    // The decide-time run has no request context: this policy allows there, and still decides at resume.
    await app.runtime.approvals.decide(approval.id, { status: "approved", approver: priya, input: { customerId: "c_blocked", amount: 80 } });
    const denied = await app.runtime.resume(approval.id, { context: { strict: true }, expectedActor: dana });
    expect(errorOf(denied).code).toBe("POLICY_DENIED");
    expect(app.ran).toEqual([]);
    const result = await app.runtime.resume(approval.id, { context: {}, expectedActor: dana });
    expect(result).toMatchObject({ status: "completed", approvedWithChanges: { changed: ["/amount", "/customerId"] } });
    expect(app.ran).toEqual([{ customerId: "c_blocked", amount: 80 }]);
  });
});
