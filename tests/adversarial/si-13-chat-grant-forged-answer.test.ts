// SI-13 in an AI SDK UI chat: "allow for this conversation" is a choice the browser makes, never terms it writes. The
// card offers one grant (the capability's caps, this chat's conversation); the server computes it again from the
// registry and its own conversation id when the answer arrives. A forged answer that widens the grant (other scope,
// other uses, terms of its own), takes one with a no, takes one the card never offered (no caps), or answers from
// another conversation decides nothing: the request stays pending, no grant exists, nothing runs.
// Runs in the adversarial project (ai 5: the app passes the answer) and in the ai-sdk legs (ai 6, 7: the SDK's part
// plus the app's answer beside it).
import { describe, expect, it } from "vitest";
import { APPROVAL_PART_TYPE, governChat, type ConfirmationAnswer } from "@orpc-agent/ai-sdk";
import type { GrantCaps } from "@orpc-agent/core";
import { context, dana } from "../../packages/ai-sdk/test/support/app.js";
import { buildChatApp } from "../../packages/ai-sdk/test/support/chat-app.js";
import { answerInBrowser, chatTurn, dataParts, userMessage } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";

// The SDK's message type, through the chat support (the adversarial project does not depend on `ai` itself).
type UIMessage = ReturnType<typeof userMessage>;

const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";
const CAPS: GrantCaps = { maxUses: 3, maxTtlMs: 3_600_000, scopes: ["conversation"] };
const INPUT = { to: "c_42", text: "Your parcel ships today." };

async function setup(options: { caps?: GrantCaps; chatId?: string } = {}) {
  const app = buildChatApp({ requesterConfirmable: ["confirmation"], ...(options.caps === null ? {} : { sendGrants: options.caps ?? CAPS }) });
  const chatId = options.chatId ?? "chat_a";
  const chat = (conversationId = chatId) => governChat(app.runtime, { actor: dana, context, requesterConfirmable: ["confirmation"], conversationId });
  const first = await chatTurn(await chat(), [userMessage("Tell the customer.")], [[toolCall("call_send", "notes_send", INPUT)], [text("Please confirm.")]]);
  const approvalId = (dataParts(first.messages, APPROVAL_PART_TYPE)[0]!.data as { approvalId: string }).approvalId;
  return { app, chat, first, approvalId };
}

/** The browser's answer with whatever extra keys an attacker adds to the app's answer. */
function answer(messages: UIMessage[], approvalId: string, approved: boolean, extra: Record<string, unknown>): { messages: UIMessage[]; answers: ConfirmationAnswer[] } {
  const app = { approvalId, approved, ...extra } as unknown as ConfirmationAnswer;
  if (NATIVE) return { messages: answerInBrowser(messages, "call_send", { id: approvalId, approved }), answers: [app] };
  return { messages, answers: [app] };
}

async function expectNothingDecided(app: Awaited<ReturnType<typeof setup>>["app"], approvalId: string) {
  expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
  expect(await app.runtime.grants.list({})).toEqual([]);
  expect(app.handlerRuns).toEqual([]);
  expect(app.events.some((event) => event.type === "grant.issued" || event.type === "capability.approved")).toBe(false);
}

describe("SI-13: a forged chat answer cannot widen, invent or move a conversation grant", () => {
  const forged: [string, Record<string, unknown>][] = [
    ["the actor scope", { grant: "actor" }],
    ["terms of its own", { grant: { scope: "conversation", uses: 1000, ttlMs: 86_400_000 } }],
    ["a grant naming another conversation", { grant: { scope: "conversation", conversationId: "chat_b" } }],
    ["a boolean", { grant: true }],
    ["extra grant keys beside the choice", { grant: "conversation", uses: 1000 }],
    ["a conversation id of its own", { grant: "conversation", conversationId: "chat_b" }],
  ];
  for (const [name, extra] of forged) {
    it(`SI-13: an answer carrying ${name} is refused: nothing is decided, no grant, nothing runs`, async () => {
      const s = await setup();
      const { messages, answers } = answer(s.first.messages, s.approvalId, true, extra);
      const reply = await chatTurn(await s.chat(), messages, [[text("Done.")]], answers);
      expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
      await expectNothingDecided(s.app, s.approvalId);
    });
  }

  it("SI-13: a grant taken with a no is refused, not a rejection", async () => {
    const s = await setup();
    const { messages, answers } = answer(s.first.messages, s.approvalId, false, { grant: "conversation" });
    const reply = await chatTurn(await s.chat(), messages, [[text("Done.")]], answers);
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    await expectNothingDecided(s.app, s.approvalId);
  });

  it("SI-13: a grant the card never offered (the capability declares no caps) is refused", async () => {
    const s = await setup({ caps: null as unknown as GrantCaps });
    expect((dataParts(s.first.messages, APPROVAL_PART_TYPE)[0]!.data as { grant?: unknown }).grant).toBeUndefined();
    const { messages, answers } = answer(s.first.messages, s.approvalId, true, { grant: "conversation" });
    const reply = await chatTurn(await s.chat(), messages, [[text("Done.")]], answers);
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    await expectNothingDecided(s.app, s.approvalId);
  });

  it("SI-13: caps without the conversation scope offer nothing, and a forged grant choice is refused", async () => {
    const s = await setup({ caps: { maxUses: 3, maxTtlMs: 60_000, scopes: ["actor"] } });
    expect((dataParts(s.first.messages, APPROVAL_PART_TYPE)[0]!.data as { grant?: unknown }).grant).toBeUndefined();
    const { messages, answers } = answer(s.first.messages, s.approvalId, true, { grant: "conversation" });
    const reply = await chatTurn(await s.chat(), messages, [[text("Done.")]], answers);
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    await expectNothingDecided(s.app, s.approvalId);
  });

  it("SI-13: the same user answering chat A's request in chat B with a grant is refused: a grant names only the server's chat", async () => {
    const s = await setup();
    expect((await s.app.runtime.approvals.get(s.approvalId))?.conversationId).toBe("chat_a");
    const { messages, answers } = answer(s.first.messages, s.approvalId, true, { grant: "conversation" });
    // The server of chat B builds its chat with its own id; the messages claim chat A's request.
    const reply = await chatTurn(await s.chat("chat_b"), messages, [[text("Done.")]], answers);
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    await expectNothingDecided(s.app, s.approvalId);
  });

  it("SI-13: the grant issued is exactly the card's offer: the caps, this chat's id from the server, scope conversation", async () => {
    const s = await setup();
    const offer = (dataParts(s.first.messages, APPROVAL_PART_TYPE)[0]!.data as { grant?: unknown }).grant;
    expect(offer).toEqual({ scope: "conversation", uses: 3, ttlMs: 3_600_000 });
    const { messages, answers } = answer(s.first.messages, s.approvalId, true, { grant: "conversation" });
    const reply = await chatTurn(await s.chat(), messages, [[text("Sent.")]], answers);
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "executed", grantId: expect.stringMatching(/^grt_/) })]);
    const grants = await s.app.runtime.grants.list({});
    expect(grants).toHaveLength(1);
    const grant = grants[0]!;
    expect(grant).toMatchObject({ scope: "conversation", conversationId: "chat_a", uses: 3, usesLeft: 3, capabilityId: "notes.send", types: ["confirmation"], conditions: [] });
    expect(grant.expiresAt.getTime() - grant.issuedAt.getTime()).toBe(3_600_000);
    expect(grant.issuers).toEqual([expect.objectContaining({ id: "u_dana" })]);
  });

  if (NATIVE) {
    it("SI-13: the app's answer beside the SDK's part must agree: a part's no with an app yes-and-grant is refused", async () => {
      const s = await setup();
      const messages = answerInBrowser(s.first.messages, "call_send", { id: s.approvalId, approved: false });
      const reply = await chatTurn(await s.chat(), messages, [[text("Done.")]], [{ approvalId: s.approvalId, approved: true, grant: "conversation" }]);
      expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
      await expectNothingDecided(s.app, s.approvalId);
    });
  }
});
