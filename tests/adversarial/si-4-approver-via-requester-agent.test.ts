// SI-4, separation of duties (issue 43): a decision relayed by the party that made the call is not an independent
// human decision. An approver acting through the requester's own acting agent ("priya via the agent that acts for
// dana"), or through the requester themselves, cannot decide that request, on every path that decides: the
// runtime's `decide`, quorum votes, an inline handler, and resume of a record a coordinator let through.
// "The requester's own acting agent" is the agent named by the request's `actor.via` id, compared as SI-4 compares
// approver ids (letter case, compatibility forms and invisible characters merged).
import { CapabilityError, type Actor, type ApprovalDecision } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, errorOf, meta } from "./support/runtime.js";
import { approvalStores, clockAt, type ApprovalStore } from "./support/approval-stores.js";

const stores = approvalStores("orpc_adv_via_relay");
const bot = Object.freeze({ id: "support-bot" });
const dana: Actor = Object.freeze({ id: "dana", kind: "user", via: bot });
const priya: Actor = Object.freeze({ id: "priya", kind: "user" });
const ana: Actor = Object.freeze({ id: "ana", kind: "user" });
const via = (actor: Actor, id: string): Actor => ({ ...actor, via: { id } });
const approve = (approver: Actor): ApprovalDecision => ({ status: "approved", approver });

/** Every way an approver can come through the call's own relay: dana's agent, any spelling of it, dana herself. */
const RELAYED: Actor[] = [via(priya, "support-bot"), via(priya, "Support-Bot"), via(priya, "support-bot\u200b"), via(priya, "dana"), via(ana, "DANA")];

function app(store: ApprovalStore, options: { rejectSelfApproval?: boolean; handler?: () => Promise<ApprovalDecision | undefined> } = {}) {
  const clock = clockAt();
  const { coordinator } = store.open(clock);
  const ran: string[] = [];
  const gated = (name: string, approval: Record<string, unknown>) =>
    base
      .meta({ agent: meta({ approval: { required: true, ...approval } }) })
      .input(z.object({ amount: z.number() }))
      .handler(() => (ran.push(name), "done"));
  const { runtime, events } = build({
    defs: { refund: gated("refund", { type: "manager" }), pair: gated("pair", { quorum: 2 }), confirm: gated("confirm", { type: "confirmation" }) },
    approvals: {
      coordinator,
      // Unsealed on purpose, so resume's own check is what refuses a relayed decision written straight into the store.
      seal: false,
      requesterConfirmable: ["confirmation"],
      ...(options.rejectSelfApproval === undefined ? {} : { rejectSelfApproval: options.rejectSelfApproval }),
      ...(options.handler === undefined ? {} : { handler: options.handler }),
    },
    now: () => clock.now(),
  });
  const request = async (capabilityId = "refund") => approvalOf(await runtime.invoke(capabilityId, { amount: 5 }, { actor: dana, context: {} })).id;
  const decisionEvents = () => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected" || e.type === "capability.approval_recorded");
  return { runtime, coordinator, ran, request, decisionEvents };
}

async function selfApprovalOf(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(CapabilityError.isInstance(error), "the relayed decision was accepted").toBe(true);
  expect(error).toMatchObject({ code: "APPROVAL_SELF_APPROVAL", stage: "approval" });
}

for (const store of stores) {
  describe(`an approver through the requester's own agent, on the ${store.name} store (SI-4)`, () => {
    it(`SI-4: ${store.name}: runtime.approvals.decide refuses a decision relayed by dana's agent or by dana; the record stays pending for an independent approver`, async () => {
      const a = app(store);
      const id = await a.request();
      for (const approver of RELAYED) {
        await selfApprovalOf(a.runtime.approvals.decide(id, approve(approver)));
        await selfApprovalOf(a.runtime.approvals.decide(id, { status: "rejected", approver }));
      }
      expect((await a.coordinator.get(id))!).toMatchObject({ status: "pending" });
      expect(a.decisionEvents()).toEqual([]);
      // Priya deciding directly, or through an agent of her own, is independent of the call.
      expect((await a.runtime.approvals.decide(id, approve(via(priya, "approvals-console")))).status).toBe("approved");
      expect((await a.runtime.resume(id, { context: {} })).status).toBe("completed");
      expect(a.ran).toEqual(["refund"]);
    });

    it(`SI-4: ${store.name}: a quorum vote relayed by dana's agent is refused and never counts, even with rejectSelfApproval: false`, async () => {
      for (const rejectSelfApproval of [true, false]) {
        const a = app(store, { rejectSelfApproval });
        const id = await a.request("pair");
        expect((await a.runtime.approvals.decide(id, approve(ana))).status).toBe("pending");
        for (const approver of RELAYED.filter((actor) => actor.id !== "ana")) await selfApprovalOf(a.runtime.approvals.decide(id, approve(approver)));
        const record = (await a.coordinator.get(id))!;
        expect(record.status).toBe("pending");
        expect(record.approvals!.map((vote) => vote.approver.id)).toEqual(["ana"]);
        expect((await a.runtime.approvals.decide(id, approve(priya))).status).toBe("approved");
      }
    });

    it(`SI-4: ${store.name}: resume refuses a record a coordinator let a relayed approver decide, and does not consume it`, async () => {
      const a = app(store);
      const single = await a.request();
      await a.coordinator.decide(single, approve(via(priya, "SUPPORT-BOT")));
      const quorum = await a.request("pair");
      await a.coordinator.decide(quorum, approve(ana));
      await a.coordinator.decide(quorum, approve(via(priya, "dana")));
      for (const id of [single, quorum]) {
        expect(errorOf(await a.runtime.resume(id, { context: {} }))).toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
        expect((await a.coordinator.get(id))!.status).toBe("approved");
      }
      expect(a.ran).toEqual([]);
    });

    it(`SI-4: ${store.name}: an inline decision relayed by dana's agent fails the call and the handler never runs`, async () => {
      for (const approver of RELAYED) {
        const a = app(store, { handler: async () => approve(approver) });
        const result = await a.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} });
        expect(errorOf(result)).toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
        expect(a.ran).toEqual([]);
      }
    });

    it(`SI-4: ${store.name}: dana confirming her own requester-confirmable request through her agent is still her confirmation`, async () => {
      const a = app(store);
      const id = await a.request("confirm");
      expect((await a.runtime.approvals.decide(id, approve(dana))).status).toBe("approved");
      expect((await a.runtime.resume(id, { context: {} })).status).toBe("completed");
      // Not so for another person through that agent, nor for a type dana may not confirm.
      await selfApprovalOf(a.runtime.approvals.decide(await a.request("confirm"), approve(via(priya, "support-bot"))));
      await selfApprovalOf(a.runtime.approvals.decide(await a.request(), approve(dana)));
      expect(a.ran).toEqual(["confirm"]);
    });

    it(`SI-4: ${store.name}: rejectSelfApproval: false lifts the rule for a single approver, as it lifts the requester's`, async () => {
      const a = app(store, { rejectSelfApproval: false });
      const id = await a.request();
      expect((await a.runtime.approvals.decide(id, approve(via(priya, "support-bot")))).status).toBe("approved");
      expect((await a.runtime.resume(id, { context: {} })).status).toBe("completed");
    });
  });
}
