// SI-3 / SI-4 for chat confirmations across acting agents (issue 43, finding 5). A confirmation belongs to the
// principal that asked: actor id, kind and acting agent (`via`). A chat whose principal differs from the request's
// in any of these, as the runtime's resume guard compares them, is refused before anything is decided, so the
// record stays pending for its own chat; and an approved answer whose resume fails is reported as failed, never
// as executed. Runs in the adversarial project (ai 5: the app passes the answer) and in the ai-sdk legs (ai 6, 7).
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { allow, createInMemoryApprovalCoordinator, definePolicy, deny, type ActingAgent, type Actor } from "@orpc-agent/core";
import { APPROVAL_PART_TYPE, governChat, type ConfirmationAnswer, type GovernedChat } from "@orpc-agent/ai-sdk";
import { answerInBrowser, chatTurn, dataParts, toolPart, userMessage, type ChatTurn } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";
import { base, build, dana, meta } from "./support/runtime.js";

type Messages = ChatTurn["messages"];
const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";
const INPUT = { to: "bob", cents: 1200 };
const agentA: ActingAgent = Object.freeze({ id: "agent-A" });
const agentB: ActingAgent = Object.freeze({ id: "agent-B" });

/** Who a chat acts as: the session's actor, and the acting agent the host names through `governChat`'s `via`. */
type Principal = { actor: Actor; via?: ActingAgent };

function setupApp() {
  const ran: { input: unknown; via: string | null }[] = [];
  const frozen = { now: false };
  const pay = base
    .meta({ agent: meta({ description: "Pay someone.", approval: { required: true, type: "confirmation" } }) })
    .input(z.object({ to: z.string(), cents: z.number().int() }))
    .handler(({ input, context }) => {
      ran.push({ input, via: (context as { agent?: { actor: Actor } }).agent?.actor.via?.id ?? null });
      return { paid: input.cents };
    });
  // Payments can be frozen between the request and the answer; resume then refuses at R10.
  const freeze = definePolicy("payments-frozen", () => (frozen.now ? deny("frozen", "Payments are frozen.") : allow()), { phases: ["invocation"] });
  const { runtime, events } = build({
    defs: { pay },
    policies: [freeze],
    approvals: { coordinator: createInMemoryApprovalCoordinator(), requesterConfirmable: ["confirmation"] },
  });
  const chatFor = ({ actor, via }: Principal) => governChat(runtime, { actor, context: {}, requesterConfirmable: ["confirmation"], ...(via ? { via } : {}) });
  return { runtime, events, ran, frozen, chatFor };
}

/** The requester's chat asks for the payment; the record and the conversation holding its confirmation. */
async function requested(requester: Principal) {
  const app = setupApp();
  const chat = await app.chatFor(requester);
  const first = await chatTurn(chat, [userMessage("Pay Bob.")], [[toolCall("call_pay", "pay", INPUT)], [text("Please confirm.")]]);
  const approvalId = (dataParts(first.messages, APPROVAL_PART_TYPE)[0]!.data as { approvalId: string }).approvalId;
  return { ...app, chat, first, approvalId };
}

function answered(messages: Messages, approvalId: string, approved = true): { messages: Messages; answers?: ConfirmationAnswer[] } {
  if (NATIVE) return { messages: answerInBrowser(messages, "call_pay", { id: approvalId, approved }) };
  return { messages, answers: [{ approvalId, approved }] };
}

function next(chat: GovernedChat, reply: { messages: Messages; answers?: ConfirmationAnswer[] }) {
  return chatTurn(chat, reply.messages, [[text("Done.")]], reply.answers);
}

const decisions = (events: { type: string }[]) => events.filter((event) => event.type === "capability.approved" || event.type === "capability.rejected");

const viaAOnActor: Principal = { actor: { ...dana, via: agentA } };
const viaAByOption: Principal = { actor: dana, via: agentA };

describe("a chat confirmation belongs to the principal that asked, acting agent included (SI-3)", () => {
  for (const [label, requester, intruder] of [
    ["on the actor", viaAOnActor, { actor: { ...dana, via: agentB } }],
    ["named by governChat's via option", viaAByOption, { actor: dana, via: agentB }],
  ] as const) {
    it(`SI-3: dana via agent-B answering what dana via agent-A asked (acting agent ${label}) is refused; nothing is decided, and agent-A's own answer still executes once`, async () => {
      const s = await requested(requester);
      expect(await s.runtime.approvals.get(s.approvalId)).toMatchObject({ status: "pending", actor: { id: dana.id, kind: dana.kind, via: { id: "agent-A" } } });

      for (const approved of [true, false]) {
        const reply = await next(await s.chatFor(intruder), answered(s.first.messages, s.approvalId, approved));
        expect(reply.outcomes).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "refused" })]);
        expect(toolPart(reply.messages, "call_pay")).toMatchObject({ state: "output-error", errorText: "This confirmation was not accepted." });
      }
      // Refused before deciding: the record is still agent-A's to confirm, and no decision was recorded.
      expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
      expect(decisions(s.events)).toEqual([]);
      expect(s.ran).toEqual([]);

      const own = await next(await s.chatFor(requester), answered(s.first.messages, s.approvalId));
      expect(own.outcomes).toEqual([expect.objectContaining({ outcome: "executed", result: { status: "ok", data: { paid: 1200 } } })]);
      expect(s.ran).toEqual([{ input: INPUT, via: "agent-A" }]);
    });
  }

  it("SI-3: the same id with another kind, and the same user through an agent answering what they asked directly, are refused", async () => {
    const direct = await requested({ actor: dana });
    for (const intruder of [{ actor: { ...dana, kind: "service" } }, { actor: dana, via: agentA }, { actor: { ...dana, via: agentA } }] satisfies Principal[]) {
      const reply = await next(await direct.chatFor(intruder), answered(direct.first.messages, direct.approvalId));
      expect(reply.outcomes, JSON.stringify(intruder)).toEqual([expect.objectContaining({ outcome: "refused" })]);
    }
    expect((await direct.runtime.approvals.get(direct.approvalId))?.status).toBe("pending");
    expect(decisions(direct.events)).toEqual([]);
    expect(direct.ran).toEqual([]);
  });

  it("SI-3: the chat's check is the runtime's resume guard: for every pair of principals, an answer is refused exactly when resume would refuse that guard", async () => {
    const principals: Principal[] = [
      { actor: dana },
      { actor: { ...dana, kind: "service" } },
      { actor: { ...dana, via: agentA } },
      { actor: dana, via: agentB },
      { actor: { ...dana, displayName: "Dana", via: { id: "agent-A", displayName: "Another name" } } },
    ];
    for (const requester of principals.slice(0, 4)) {
      for (const answerer of principals) {
        const s = await requested(requester);
        const guard: Actor = answerer.via ? { ...answerer.actor, via: answerer.via } : answerer.actor;
        // What resume itself says about this guard on this record (R2 runs before any status check).
        const probe = await s.runtime.resume(s.approvalId, { context: {}, expectedActor: guard, expectedSurface: "aiSdk" });
        const runtimeRefuses = probe.status === "failed" && probe.error.code === "APPROVAL_RESUME_MISMATCH";
        const reply = await next(await s.chatFor(answerer), answered(s.first.messages, s.approvalId));
        const pair = `${JSON.stringify(requester)} answered by ${JSON.stringify(answerer)}`;
        expect(reply.outcomes.map((o) => o.outcome), pair).toEqual([runtimeRefuses ? "refused" : "executed"]);
        expect((await s.runtime.approvals.get(s.approvalId))?.status, pair).toBe(runtimeRefuses ? "pending" : "consumed");
      }
    }
  });
});

describe("an answer is reported executed only when the call ran (SI-4, SI-6)", () => {
  it("SI-6: an approved answer whose resume is refused (a policy denies by the time the user confirms) is reported failed, never executed", async () => {
    const s = await requested(viaAOnActor);
    s.frozen.now = true;
    const reply = await next(s.chat, answered(s.first.messages, s.approvalId));
    expect(reply.outcomes).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "failed", result: { status: "error", error: expect.objectContaining({ code: "POLICY_DENIED" }) } })]);
    expect(reply.outcomes.some((o) => o.outcome === "executed")).toBe(false);
    expect(toolPart(reply.messages, "call_pay")).toMatchObject({ state: "output-error", errorText: "Payments are frozen." });
    expect(dataParts(reply.messages, APPROVAL_PART_TYPE)[0]).toMatchObject({ id: s.approvalId, data: { state: "failed" } });
    expect(s.ran).toEqual([]);
  });

  it("SI-6: an approved answer whose resume throws is reported failed with the concealed envelope, never executed", async () => {
    const s = await requested(viaAOnActor);
    // The runtime is frozen: a copy whose resume rejects, as a store failing mid-resume would make it.
    const broken = { ...s.runtime, resume: () => Promise.reject(new Error("store down")) } as typeof s.runtime;
    const chat = await governChat(broken, { actor: viaAOnActor.actor, context: {}, requesterConfirmable: ["confirmation"] });
    const reply = await next(chat, answered(s.first.messages, s.approvalId));
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "failed", result: { status: "error", error: expect.objectContaining({ code: "INTERNAL_ERROR" }) } })]);
    expect(JSON.stringify(reply.messages)).not.toContain("store down");
    expect(s.ran).toEqual([]);
  });
});
