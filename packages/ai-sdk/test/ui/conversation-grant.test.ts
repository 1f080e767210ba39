// issue 45 (SI-13): "allow for this conversation" in an AI SDK UI chat. The chat passes its id as conversationId on
// every call; a confirmation card of a capability whose caps allow the conversation scope offers a grant of the
// caps; taking it decides through the runtime with that grant, and the next calls of this chat run without asking,
// until the uses run out. Another chat of the same user still asks. Real `ai` loop, scripted model.
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { APPROVAL_PART_TYPE, governChat, type ConfirmationAnswer } from "../../src/index.js";
import { context, dana } from "../support/app.js";
import { buildChatApp } from "../support/chat-app.js";
import { answerInBrowser, chatTurn, dataParts, toolPart, userMessage } from "../support/chat-turn.js";
import { text, toolCall } from "../support/scripted-model.js";

const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";
const CAPS = { maxUses: 2, maxTtlMs: 600_000, scopes: ["conversation" as const] };
const send = (to: string, amount?: number) => ({ to, text: "Your parcel ships today.", ...(amount === undefined ? {} : { amount }) });

function setup(caps: typeof CAPS | null = CAPS) {
  const app = buildChatApp({ requesterConfirmable: ["confirmation"], ...(caps ? { sendGrants: caps } : {}) });
  const chat = (conversationId?: string) =>
    governChat(app.runtime, { actor: dana, context, requesterConfirmable: ["confirmation"], ...(conversationId !== undefined ? { conversationId } : {}) });
  return { app, chat };
}

async function ask(chat: Awaited<ReturnType<ReturnType<typeof setup>["chat"]>>, callId: string, input: object, history: UIMessage[] = []) {
  const turn = await chatTurn(chat, [...history, userMessage("Tell the customer.")], [[toolCall(callId, "notes_send", input)], [text("Next.")]]);
  const card = dataParts(turn.messages, APPROVAL_PART_TYPE).find((part) => (part.data as { toolCallId?: string }).toolCallId === callId);
  return { turn, card: card?.data as { approvalId: string; state: string; grant?: unknown } | undefined, part: toolPart(turn.messages, callId) };
}

function takeGrant(messages: UIMessage[], callId: string, approvalId: string): { messages: UIMessage[]; answers: ConfirmationAnswer[] } {
  const answers: ConfirmationAnswer[] = [{ approvalId, approved: true, grant: "conversation" }];
  return { messages: NATIVE ? answerInBrowser(messages, callId, { id: approvalId, approved: true }) : messages, answers };
}

describe("AI SDK UI: allow for this conversation (standing grants)", () => {
  it("every call carries the chat id: the approval request records it as its conversation", async () => {
    const s = setup();
    const { card } = await ask(await s.chat("chat_1"), "call_1", send("c_42"));
    expect((await s.app.runtime.approvals.get(card!.approvalId))?.conversationId).toBe("chat_1");
  });

  it("the card offers the caps for this conversation only where the caps allow it and the chat has an id", async () => {
    const offered = await ask(await setup().chat("chat_1"), "call_1", send("c_42"));
    expect(offered.card).toMatchObject({ state: "confirmation-requested", grant: { scope: "conversation", uses: 2, ttlMs: 600_000 } });
    const noId = await ask(await setup().chat(), "call_1", send("c_42"));
    expect(noId.card).toMatchObject({ state: "confirmation-requested" });
    expect(noId.card!.grant).toBeUndefined();
    const noCaps = await ask(await setup(null).chat("chat_1"), "call_1", send("c_42"));
    expect(noCaps.card!.grant).toBeUndefined();
  });

  it("a card someone else decides (a manager's type) offers no grant", async () => {
    const large = await ask(await setup().chat("chat_1"), "call_1", send("c_42", 500));
    expect(large.card).toMatchObject({ state: "pending" });
    expect(large.card!.grant).toBeUndefined();
  });

  it("taking the grant: decided with it through the runtime, the next calls of this chat run without asking until the uses are spent", async () => {
    const s = setup();
    const chat = await s.chat("chat_1");
    const first = await ask(chat, "call_1", send("c_1"));
    const reply = takeGrant(first.turn.messages, "call_1", first.card!.approvalId);
    const answered = await chatTurn(await s.chat("chat_1"), reply.messages, [[text("Sent.")]], reply.answers);
    expect(answered.outcomes).toEqual([expect.objectContaining({ outcome: "executed", grantId: expect.stringMatching(/^grt_/) })]);
    const record = await s.app.runtime.approvals.get(first.card!.approvalId);
    expect(record).toMatchObject({ status: "consumed", decision: { status: "approved", approver: { id: "u_dana" } } });

    // Two more sends in this chat: covered, no card, the handler runs.
    let history = answered.messages;
    for (const [callId, to] of [["call_2", "c_2"], ["call_3", "c_3"]] as const) {
      const next = await ask(await s.chat("chat_1"), callId, send(to), history);
      expect(next.card).toBeUndefined();
      expect(next.part).toMatchObject({ state: "output-available", output: { status: "ok", data: { sent: to } } });
      history = next.turn.messages;
    }
    expect(s.app.handlerRuns).toEqual(["notes.send:c_1", "notes.send:c_2", "notes.send:c_3"]);
    const approved = s.app.events.filter((event) => event.type === "capability.approved");
    expect(approved).toHaveLength(3);

    // Uses spent: the next one asks again.
    const spent = await ask(await s.chat("chat_1"), "call_4", send("c_4"), history);
    expect(spent.card).toMatchObject({ state: "confirmation-requested" });
    const [grant] = await s.app.runtime.grants.list({});
    expect(grant).toMatchObject({ status: "exhausted", usesLeft: 0, conversationId: "chat_1" });
  });

  it("another chat of the same user is not covered: it asks", async () => {
    const s = setup();
    const first = await ask(await s.chat("chat_1"), "call_1", send("c_1"));
    const reply = takeGrant(first.turn.messages, "call_1", first.card!.approvalId);
    await chatTurn(await s.chat("chat_1"), reply.messages, [[text("Sent.")]], reply.answers);
    const other = await ask(await s.chat("chat_2"), "call_9", send("c_9"));
    expect(other.card).toMatchObject({ state: "confirmation-requested" });
    const none = await ask(await s.chat(), "call_8", send("c_8"));
    expect(none.card).toMatchObject({ state: "confirmation-requested" });
    expect(s.app.handlerRuns).toEqual(["notes.send:c_1"]);
  });

  it("allow once still works on a card that offers a grant, and issues none", async () => {
    const s = setup();
    const first = await ask(await s.chat("chat_1"), "call_1", send("c_1"));
    const approvalId = first.card!.approvalId;
    const reply = NATIVE
      ? { messages: answerInBrowser(first.turn.messages, "call_1", { id: approvalId, approved: true }) }
      : { messages: first.turn.messages, answers: [{ approvalId, approved: true }] };
    const answered = await chatTurn(await s.chat("chat_1"), reply.messages, [[text("Sent.")]], reply.answers);
    expect(answered.outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
    expect(answered.outcomes[0]!.grantId).toBeUndefined();
    expect(await s.app.runtime.grants.list({})).toEqual([]);
    const next = await ask(await s.chat("chat_1"), "call_2", send("c_2"), answered.messages);
    expect(next.card).toMatchObject({ state: "confirmation-requested" });
  });
});
