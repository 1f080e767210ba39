// SI-4 (issue 43, finding 8): every refusal of `decide` is a typed `CapabilityError` from the closed registry, through
// `runtime.approvals.decide` and from the coordinator itself, the same on the in-memory and the PostgreSQL store.
// Nothing refused changes the record or emits a decision event; an unknown id and a record the runtime will not
// show (its seal fails) answer alike, whoever asks (SI-8).
import { CapabilityError, createInMemoryApprovalCoordinator, type Actor, type ApprovalCoordinator, type ApprovalDecision, type ErrorCode } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, meta, mo } from "./support/runtime.js";
import { approvalStores, clockAt, type ApprovalStore } from "./support/approval-stores.js";

const stores = approvalStores("orpc_adv_decide_typed");
const ana: Actor = Object.freeze({ id: "ana", kind: "user" });
const K1 = { id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" };
const EXPIRES_IN_MS = 60_000;
const UNKNOWN_ID = "apr_00000000-0000-4000-8000-000000000000";

const approve = (approver: unknown): ApprovalDecision => ({ status: "approved", approver }) as ApprovalDecision;
const reject = (approver: unknown): ApprovalDecision => ({ status: "rejected", approver }) as ApprovalDecision;

function app(store: ApprovalStore) {
  const clock = clockAt();
  const opened = store.open(clock);
  const ran: string[] = [];
  const gated = (name: string, approval: Record<string, unknown>) =>
    base
      .meta({ agent: meta({ approval: { required: true, expiresInMs: EXPIRES_IN_MS, ...approval } }) })
      .input(z.object({ amount: z.number() }))
      .handler(() => (ran.push(name), "done"));
  const { runtime, events } = build({
    defs: { refund: gated("refund", { type: "manager" }), pair: gated("pair", { quorum: 2 }), confirm: gated("confirm", { type: "confirmation" }) },
    approvals: { coordinator: opened.coordinator, seal: { keys: [K1] }, requesterConfirmable: ["confirmation"] },
    now: () => clock.now(),
  });
  const request = async (capabilityId = "refund") => approvalOf(await runtime.invoke(capabilityId, { amount: 5 }, { actor: dana, context: {} })).id;
  const decisionEvents = () => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected" || e.type === "capability.approval_recorded");
  return { runtime, coordinator: opened.coordinator, edit: opened.edit, clock, ran, request, decisionEvents };
}

/** The error a promise rejects with; a fulfilment fails the test. */
async function refusalOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a refusal, the decision was accepted: ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

function expectTyped(error: unknown, code: ErrorCode): void {
  expect(CapabilityError.isInstance(error), `a CapabilityError, got ${String(error)}`).toBe(true);
  expect(error).toBeInstanceOf(CapabilityError);
  expect(error).toMatchObject({ code, stage: "approval" });
}

/** Everything a caller can observe of an error, with the approval id it names blanked. */
function observable(error: unknown, id: string) {
  const e = error as CapabilityError;
  const cause = e.cause instanceof Error ? e.cause.message : String(e.cause);
  return {
    name: e.name,
    code: e.code,
    stage: e.stage,
    message: e.message.replaceAll(id, "<id>"),
    publicMessage: e.publicMessage.replaceAll(id, "<id>"),
    retryable: e.retryable,
    exposeToModel: e.exposeToModel,
    details: e.details,
    json: JSON.stringify(e).replaceAll(id, "<id>"),
    cause: cause.replaceAll(id, "<id>"),
  };
}

/** Both deciding paths: the runtime's guarded one and the coordinator's own. */
function paths(a: ReturnType<typeof app>): [string, ApprovalCoordinator["decide"]][] {
  return [
    ["runtime.approvals.decide", (id, decision) => a.runtime.approvals.decide(id, decision)],
    ["coordinator.decide", (id, decision) => a.coordinator.decide(id, decision)],
  ];
}

for (const store of stores) {
  describe(`typed decide refusals on the ${store.name} store (SI-4)`, () => {
    it(`SI-4: ${store.name}: an unknown id is INTERNAL_ERROR (approval), and a record whose seal fails answers exactly alike, whoever decides`, async () => {
      const a = app(store);
      for (const [, decide] of paths(a)) expectTyped(await refusalOf(decide(UNKNOWN_ID, approve(mo))), "INTERNAL_ERROR");

      const hidden = await a.request();
      await a.edit(hidden);
      const unknown = observable(await refusalOf(a.runtime.approvals.decide(UNKNOWN_ID, approve(mo))), UNKNOWN_ID);
      expect(unknown.cause).toBe('Approval "<id>" was not found');
      // The requester, the manager, a rejection: none learns that the edited record exists or whose it is.
      for (const decision of [approve(mo), approve(dana), reject(ana)]) {
        expect(observable(await refusalOf(a.runtime.approvals.decide(hidden, decision)), hidden)).toEqual(unknown);
      }
      expect(a.decisionEvents()).toEqual([]);
      expect(a.ran).toEqual([]);
    });

    it(`SI-4: ${store.name}: a record already approved, rejected, consumed or expired refuses with the code of its status and keeps its decision`, async () => {
      const a = app(store);
      const approved = await a.request();
      await a.runtime.approvals.decide(approved, approve(mo));
      const rejected = await a.request();
      await a.runtime.approvals.decide(rejected, reject(mo));
      const consumed = await a.request();
      await a.runtime.approvals.decide(consumed, approve(mo));
      expect((await a.runtime.resume(consumed, { context: {} })).status).toBe("completed");
      const expired = await a.request();
      a.clock.advance(EXPIRES_IN_MS + 1);
      const before = a.decisionEvents().length;

      for (const [path, decide] of paths(a)) {
        for (const decision of [approve(ana), reject(ana)]) {
          expectTyped(await refusalOf(decide(approved, decision)), "APPROVAL_ALREADY_DECIDED");
          expectTyped(await refusalOf(decide(rejected, decision)), "APPROVAL_REJECTED");
          expectTyped(await refusalOf(decide(consumed, decision)), "APPROVAL_CONSUMED");
          expectTyped(await refusalOf(decide(expired, decision)), "APPROVAL_EXPIRED");
        }
        expect((await a.coordinator.get(approved))!, path).toMatchObject({ status: "approved", decision: { approver: { id: "mo" } } });
        expect((await a.coordinator.get(rejected))!, path).toMatchObject({ status: "rejected", decision: { approver: { id: "mo" } } });
        expect((await a.coordinator.get(consumed))!.status, path).toBe("consumed");
        expect((await a.coordinator.get(expired))!.decision, path).toBeUndefined();
      }
      expect(a.decisionEvents()).toHaveLength(before);
      expect(a.ran).toEqual(["refund"]);
    });

    it(`SI-4: ${store.name}: a second vote by an approver already counted, under any spelling, is APPROVAL_ALREADY_DECIDED and counts once`, async () => {
      const a = app(store);
      const id = await a.request("pair");
      expect((await a.runtime.approvals.decide(id, approve(mo))).status).toBe("pending");
      for (const [, decide] of paths(a)) expectTyped(await refusalOf(decide(id, approve(mo))), "APPROVAL_ALREADY_DECIDED");
      for (const spelling of ["MO", "mo\u200b", "\uff4d\uff4f"]) {
        expectTyped(await refusalOf(a.runtime.approvals.decide(id, approve({ id: spelling, kind: "user" }))), "APPROVAL_ALREADY_DECIDED");
      }
      const record = (await a.coordinator.get(id))!;
      expect(record.status).toBe("pending");
      expect(record.approvals!.map((vote) => vote.approver.id)).toEqual(["mo"]);
      expect(a.decisionEvents()).toHaveLength(1);
      expect((await a.runtime.approvals.decide(id, approve(ana))).status).toBe("approved");
    });

    it(`SI-4: ${store.name}: the requester deciding their own request, or confirming a type they may not confirm, is APPROVAL_SELF_APPROVAL`, async () => {
      const a = app(store);
      for (const capabilityId of ["refund", "pair"]) {
        const id = await a.request(capabilityId);
        for (const decision of [approve(dana), approve({ id: "DANA", kind: "user" }), reject(dana)]) {
          expectTyped(await refusalOf(a.runtime.approvals.decide(id, decision)), "APPROVAL_SELF_APPROVAL");
        }
        expect((await a.coordinator.get(id))!.status).toBe("pending");
      }
      // The requester may confirm a "confirmation" request themselves; a "manager" one stays someone else's to decide.
      expect((await a.runtime.approvals.decide(await a.request("confirm"), approve(dana))).status).toBe("approved");
      expect(a.decisionEvents()).toHaveLength(1);
    });

    it(`SI-4: ${store.name}: a malformed decision is INPUT_INVALID and a missing, malformed or anonymous approver is UNAUTHENTICATED, for known and unknown ids alike`, async () => {
      const a = app(store);
      const id = await a.request();
      const quorum = await a.request("pair");
      const malformed: [unknown, ErrorCode][] = [
        [null, "INPUT_INVALID"],
        ["approved", "INPUT_INVALID"],
        [{ status: "maybe", approver: mo }, "INPUT_INVALID"],
        [{ approver: mo }, "INPUT_INVALID"],
        [{ status: "approved", approver: mo, comment: 42 }, "INPUT_INVALID"],
        [{ status: "approved" }, "UNAUTHENTICATED"],
        [{ status: "approved", approver: { id: "", kind: "user" } }, "UNAUTHENTICATED"],
        [{ status: "approved", approver: { id: "mo", kind: "robot" } }, "UNAUTHENTICATED"],
        [{ status: "approved", approver: { id: "mo", kind: "user", via: { id: "" } } }, "UNAUTHENTICATED"],
        [{ status: "approved", approver: { id: "someone", kind: "anonymous" } }, "UNAUTHENTICATED"],
        [{ status: "rejected", approver: { id: "someone", kind: "anonymous" } }, "UNAUTHENTICATED"],
      ];
      for (const [, decide] of paths(a)) {
        for (const [decision, code] of malformed) {
          for (const target of [id, quorum, UNKNOWN_ID]) expectTyped(await refusalOf(decide(target, decision as ApprovalDecision)), code);
        }
      }
      expect((await a.coordinator.get(id))!).toMatchObject({ status: "pending" });
      expect((await a.coordinator.get(id))!.decision).toBeUndefined();
      expect((await a.coordinator.get(quorum))!.approvals).toEqual([]);
      expect(a.decisionEvents()).toEqual([]);
    });

    it(`SI-4: ${store.name}: of eight concurrent decides one wins; every loser gets the typed code of the winner's status`, async () => {
      for (let round = 0; round < 3; round++) {
        const a = app(store);
        const id = await a.request();
        const approvers = Array.from({ length: 8 }, (_, i): Actor => ({ id: `approver_${i}`, kind: "user" }));
        const results = await Promise.allSettled(approvers.map((approver, i) => a.runtime.approvals.decide(id, i % 2 === 0 ? approve(approver) : reject(approver))));
        const winners = results.filter((r) => r.status === "fulfilled");
        expect(winners).toHaveLength(1);
        const stored = (await a.coordinator.get(id))!;
        const code = stored.status === "approved" ? "APPROVAL_ALREADY_DECIDED" : "APPROVAL_REJECTED";
        for (const result of results) if (result.status === "rejected") expectTyped(result.reason, code);
        expect(a.decisionEvents()).toHaveLength(1);
      }
    });
  });
}

describe("a coordinator that fails (SI-4)", () => {
  it("SI-4: runtime.approvals.decide turns a coordinator's plain failure into INTERNAL_ERROR (approval), keeping it as the cause", async () => {
    for (const where of ["get", "decide"] as const) {
      const inner = createInMemoryApprovalCoordinator();
      const coordinator: ApprovalCoordinator = {
        ...inner,
        [where]: async () => {
          throw new Error(`connection reset in ${where}`);
        },
      };
      const refund = base.meta({ agent: meta({ approval: { required: true } }) }).handler(() => "done");
      const { runtime, events } = build({ defs: { refund }, approvals: { coordinator, seal: false } });
      const { id } = approvalOf(await runtime.invoke("refund", {}, { actor: dana, context: {} }));
      const error = await refusalOf(runtime.approvals.decide(id, approve(mo)));
      expectTyped(error, "INTERNAL_ERROR");
      expect(((error as CapabilityError).cause as Error).message).toBe(`connection reset in ${where}`);
      expect(events.filter((e) => e.type === "capability.approved" || e.type === "capability.approval_recorded")).toEqual([]);
      expect((await inner.get(id))!.status).toBe("pending");
    }
  });
});
