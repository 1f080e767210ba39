// SI-4 (issue 43, finding 8) against the decision object itself: `decide` must judge the decision it stores. The
// attacks hand `runtime.approvals.decide` and each store's own `decide` (in-memory, PostgreSQL) decisions built to
// pass a check on one read and say something else on the next (an approver that turns anonymous or into the
// requester, a status that turns into "consumed"), and decisions that cannot be read at all (a throwing getter, a
// revoked Proxy, an approver with a cycle or a bigint, so no store can keep it). A decision is read once: what was
// checked is what is stored. One that cannot be read is refused with the typed code of the field that failed,
// INPUT_INVALID or UNAUTHENTICATED, never a plain Error nor the coordinator-failure INTERNAL_ERROR, and the record is
// untouched.
import { CapabilityError, type ApprovalCoordinator, type ApprovalDecision, type ErrorCode } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalStores, clockAt, type ApprovalStore } from "./support/approval-stores.js";
import { approvalOf, base, build, dana, mo, meta } from "./support/runtime.js";

const stores = approvalStores("orpc_adv_decide_hostile");

function app(store: ApprovalStore) {
  const clock = clockAt();
  const opened = store.open(clock);
  const ran: number[] = [];
  const { runtime, events } = build({
    defs: { refund: base.meta({ agent: meta({ approval: { required: true } }) }).input(z.object({ amount: z.number() })).handler(({ input }) => (ran.push(input.amount), "done")) },
    approvals: { coordinator: opened.coordinator },
    now: () => clock.now(),
  });
  const request = async () => approvalOf(await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} })).id;
  const decisionEvents = () => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected");
  return { runtime, coordinator: opened.coordinator, ran, request, decisionEvents };
}

function paths(a: ReturnType<typeof app>): [string, ApprovalCoordinator["decide"]][] {
  return [
    ["runtime.approvals.decide", (id, decision) => a.runtime.approvals.decide(id, decision)],
    ["coordinator.decide", (id, decision) => a.coordinator.decide(id, decision)],
  ];
}

/** A value that answers `first` on its first read and `later` on every read after. */
function flipping<T>(first: T, later: T): () => T {
  let reads = 0;
  return () => (reads++ === 0 ? first : later);
}

async function refusalOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a refusal, the decision was accepted: ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

const cyclicApprover = () => {
  const approver: Record<string, unknown> = { id: "mo", kind: "user" };
  approver.self = approver;
  return approver;
};
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

/** Decisions no read can make sense of, and the code each must get. */
const UNREADABLE: [string, () => unknown, ErrorCode][] = [
  ["a status getter that throws", () => ({ get status(): never { throw new Error("boom"); }, approver: mo }), "INPUT_INVALID"],
  ["a revoked Proxy as the decision", revoked, "INPUT_INVALID"],
  ["a Proxy decision whose get trap throws", () => new Proxy({}, { get() { throw new Error("boom"); } }), "INPUT_INVALID"],
  ["a comment getter that throws", () => ({ status: "approved", approver: mo, get comment(): never { throw new Error("boom"); } }), "INPUT_INVALID"],
  ["an approver getter that throws", () => ({ status: "approved", get approver(): never { throw new Error("boom"); } }), "UNAUTHENTICATED"],
  ["an approver whose id getter throws", () => ({ status: "approved", approver: { kind: "user", get id(): never { throw new Error("boom"); } } }), "UNAUTHENTICATED"],
  ["a revoked Proxy as the approver", () => ({ status: "approved", approver: revoked() }), "UNAUTHENTICATED"],
  ["an approver Proxy whose ownKeys trap throws", () => ({ status: "rejected", approver: new Proxy({ id: "mo", kind: "user" }, { ownKeys() { throw new Error("boom"); } }) }), "UNAUTHENTICATED"],
  ["an approver that refers to itself", () => ({ status: "approved", approver: cyclicApprover() }), "UNAUTHENTICATED"],
  ["an approver holding a bigint", () => ({ status: "approved", approver: { id: "mo", kind: "user", badge: 7n } }), "UNAUTHENTICATED"],
  ["an approver whose toJSON throws", () => ({ status: "approved", approver: { id: "mo", kind: "user", toJSON(): never { throw new Error("boom"); } } }), "UNAUTHENTICATED"],
];

for (const store of stores) {
  describe(`SI-4: a decision that cannot be read is refused, typed, on the ${store.name} store`, () => {
    it.each(UNREADABLE)(`SI-4: ${store.name}: %s`, async (_label, make, code) => {
      const a = app(store);
      const id = await a.request();
      for (const [path, decide] of paths(a)) {
        const error = await refusalOf(decide(id, make() as ApprovalDecision));
        expect(CapabilityError.isInstance(error), `${path}: a CapabilityError, got ${String(error)}`).toBe(true);
        expect(error, path).toMatchObject({ code, stage: "approval" });
      }
      const record = (await a.coordinator.get(id))!;
      expect(record.status).toBe("pending");
      expect(record.decision).toBeUndefined();
      expect(a.decisionEvents()).toEqual([]);
    });
  });

  describe(`SI-4: what decide checked is what the ${store.name} store keeps`, () => {
    const SHIFTY: [string, () => unknown][] = [
      ["an approver that turns anonymous", () => {
        const approver = flipping<unknown>({ id: "mo", kind: "user" }, { id: "someone", kind: "anonymous" });
        return { status: "approved", get approver() { return approver(); } };
      }],
      ["an approver whose kind turns anonymous", () => {
        const kind = flipping("user", "anonymous");
        return { status: "approved", approver: { id: "mo", get kind() { return kind(); } } };
      }],
      ["an approver whose id turns into the requester's", () => {
        const id = flipping("mo", "dana");
        return { status: "approved", approver: { kind: "user", get id() { return id(); } } };
      }],
      ["a status that turns into consumed", () => {
        const status = flipping("approved", "consumed");
        return { get status() { return status(); }, approver: mo };
      }],
      ["a status that turns into pending", () => {
        const status = flipping("approved", "pending");
        return { get status() { return status(); }, approver: mo };
      }],
    ];

    it.each(SHIFTY)(`SI-4: ${store.name}: %s is decided as first read, once, on either path`, async (_label, make) => {
      const a = app(store);
      for (const [path, decide] of paths(a)) {
        const id = await a.request();
        const decided = await decide(id, make() as ApprovalDecision);
        const stored = (await a.coordinator.get(id))!;
        for (const record of [decided, stored]) {
          expect(record.status, path).toBe("approved");
          expect(record.decision, path).toMatchObject({ status: "approved", approver: { id: "mo", kind: "user" } });
        }
        // And it resumes as the approval of mo it is: the handler runs once.
        expect((await a.runtime.resume(id, { context: {} })).status, path).toBe("completed");
      }
      expect(a.ran).toEqual([5, 5]);
    });

    it(`SI-4: ${store.name}: a Proxy decision whose traps answer plainly is decided as what it shows`, async () => {
      const a = app(store);
      for (const [path, decide] of paths(a)) {
        const id = await a.request();
        const approver = new Proxy({ id: "mo", kind: "user" }, {});
        const decided = await decide(id, new Proxy({ status: "rejected", approver, comment: "No." }, {}) as ApprovalDecision);
        expect(decided, path).toMatchObject({ status: "rejected", decision: { status: "rejected", approver: { id: "mo", kind: "user" }, comment: "No." } });
      }
      expect(a.ran).toEqual([]);
    });
  });
}
