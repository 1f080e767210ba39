// SI-4 / SI-5 / SI-6: a requester confirmation given in an AI SDK UI chat, against an input schema whose transforms
// make the submitted input differ from the validated one (issue 25). The genuine answer confirms and executes the
// approved value once; a part showing any other input, whether it parses to the same value or to another, a
// replayed or doubled answer, another call's part and another user's chat are refused, and nothing runs.
// It runs in the adversarial project (ai 5: the app passes the answer) and in the ai-sdk legs (ai 6, 7: the SDK's
// own approval-responded part), through the real streamText loop and each major's readUIMessageStream.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { allow, createInMemoryApprovalCoordinator, definePolicy, requireApproval, type Actor } from "@orpc-agent/core";
import { APPROVAL_PART_TYPE, governChat, type ConfirmationAnswer, type GovernedChat } from "@orpc-agent/ai-sdk";
import { answerInBrowser, chatTurn, dataParts, toolPart, userMessage, type ChatTurn } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";
import { base, build, dana, meta, mo } from "./support/runtime.js";

type Messages = ChatTurn["messages"];
const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";

// Every field transforms: what the model submits is never what the handler receives.
const mailInput = z.object({
  to: z.string().transform((value) => value.trim().toLowerCase()),
  subject: z.string().trim(),
  tags: z.string().transform((value) => value.split(",")),
  copies: z.coerce.number().int().positive().default(1),
});

/** What the model submits, and what the runtime validates it to. */
const SUBMITTED = { to: "  Dana@Example.COM ", subject: " Hello ", tags: "a,b", copies: "2" };
const VALIDATED = { to: "dana@example.com", subject: "Hello", tags: ["a", "b"], copies: 2 };

function setupApp() {
  const sent: unknown[] = [];
  const send = base
    .meta({ agent: meta({ description: "Send a mail.", sideEffect: "external", approval: { required: true, type: "confirmation" } }) })
    .input(mailInput)
    .handler(({ input }) => {
      sent.push(input);
      return { sent: input.to };
    });
  // A policy on the validated value: many copies also need a manager, which no chat answer can give.
  const bulk = definePolicy("bulk-mail", (req) => ((req.input as { copies: number }).copies > 10 ? requireApproval({ reason: "Bulk mail.", approvalType: "manager" }) : allow()), {
    phases: ["invocation"],
  });
  const { runtime, events } = build({
    defs: { mail: { send } },
    policies: [bulk],
    approvals: { coordinator: createInMemoryApprovalCoordinator(), requesterConfirmable: ["confirmation"] },
  });
  const chatFor = (actor: Actor) => governChat(runtime, { actor, context: {}, requesterConfirmable: ["confirmation"] });
  return { runtime, events, sent, chatFor };
}

async function firstTurn(input: object = SUBMITTED, toolCallId = "call_mail") {
  const app = setupApp();
  const chat = await app.chatFor(dana);
  const first = await chatTurn(chat, [userMessage("Mail Dana.")], [[toolCall(toolCallId, "mail_send", input)], [text("Please confirm.")]]);
  const approvalId = (dataParts(first.messages, APPROVAL_PART_TYPE)[0]!.data as { approvalId: string }).approvalId;
  return { ...app, chat, first, approvalId };
}

/** The browser's answer: the SDK's approval-responded part on ai 6 and 7, the app's own answer on ai 5. */
function answered(messages: Messages, toolCallId: string, approvalId: string, approved = true): { messages: Messages; answers?: ConfirmationAnswer[] } {
  if (NATIVE) return { messages: answerInBrowser(messages, toolCallId, { id: approvalId, approved }) };
  return { messages, answers: [{ approvalId, approved }] };
}

function next(chat: GovernedChat, reply: { messages: Messages; answers?: ConfirmationAnswer[] }) {
  return chatTurn(chat, reply.messages, [[text("Done.")]], reply.answers);
}

/** The conversation with the part of `toolCallId` showing `input` instead of what the model submitted. */
function showing(messages: Messages, toolCallId: string, input: unknown): Messages {
  const copy = structuredClone(messages);
  toolPart(copy, toolCallId).input = input;
  return copy;
}

describe("chat confirmations bind the submitted input (SI-5), under transforms", () => {
  it("SI-5: the genuine answer to a transformed call confirms; the part shows the submitted input and the record binds it as submittedInput", async () => {
    const s = await firstTurn();
    expect(toolPart(s.first.messages, "call_mail").input).toEqual(SUBMITTED);
    expect(toolPart(s.first.messages, "call_mail").state).toBe(NATIVE ? "approval-requested" : "output-available");
    const record = await s.runtime.approvals.get(s.approvalId);
    expect(record).toMatchObject({ status: "pending", types: ["confirmation"], input: VALIDATED, submittedInput: SUBMITTED });

    const second = await next(s.chat, answered(s.first.messages, "call_mail", s.approvalId));
    expect(second.outcomes).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "executed", result: { status: "ok", data: { sent: "dana@example.com" } } })]);
    expect(toolPart(second.messages, "call_mail")).toMatchObject({ state: "output-available", output: { status: "ok" } });
    expect(dataParts(second.messages, APPROVAL_PART_TYPE)[0]).toMatchObject({ id: s.approvalId, data: { state: "completed" } });
  });

  it("SI-6: what executes after a chat confirmation is the value the record binds, validated once more from the submitted copy", async () => {
    const s = await firstTurn();
    await next(s.chat, answered(s.first.messages, "call_mail", s.approvalId));
    expect(s.sent).toEqual([VALIDATED]);
    const record = await s.runtime.approvals.get(s.approvalId);
    expect(record).toMatchObject({ status: "consumed", input: VALIDATED, decision: { status: "approved", approver: { id: dana.id } } });
  });

  it("SI-5: a part showing the key order changed confirms: the same JSON value is the same input", async () => {
    const s = await firstTurn();
    const reordered = showing(s.first.messages, "call_mail", { copies: "2", tags: "a,b", subject: " Hello ", to: "  Dana@Example.COM " });
    const second = await next(s.chat, answered(reordered, "call_mail", s.approvalId));
    expect(second.outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
    expect(s.sent).toEqual([VALIDATED]);
  });

  it("SI-5: a part showing another raw input that parses to the same value is refused; the record stays pending and the genuine answer still works", async () => {
    const s = await firstTurn();
    const sameValue: Record<string, unknown>[] = [
      { ...SUBMITTED, to: "dana@example.com" },
      { ...SUBMITTED, to: "DANA@EXAMPLE.COM" },
      { ...SUBMITTED, subject: "Hello" },
      { ...SUBMITTED, copies: 2 },
      { ...SUBMITTED, copies: "2.0" },
      { ...SUBMITTED, subject: "Hello  " },
      { ...SUBMITTED, bcc: "eve@example.com" }, // a key the schema strips
    ];
    for (const input of sameValue) {
      const reply = await next(s.chat, answered(showing(s.first.messages, "call_mail", input), "call_mail", s.approvalId));
      expect(reply.outcomes, JSON.stringify(input)).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "refused" })]);
      expect(toolPart(reply.messages, "call_mail"), JSON.stringify(input)).toMatchObject({ state: "output-error", errorText: "This confirmation was not accepted." });
    }
    expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.sent).toEqual([]);
    expect(s.events.some((event) => event.type === "capability.approved")).toBe(false);

    const genuine = await next(s.chat, answered(s.first.messages, "call_mail", s.approvalId));
    expect(genuine.outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
    expect(s.sent).toEqual([VALIDATED]);
  });

  it("SI-5: a part showing raw input that parses to another value is refused, a manager-type value among them", async () => {
    const s = await firstTurn();
    const otherValue: unknown[] = [
      VALIDATED, // the validated form itself: not what was submitted, and its tags array would not parse
      { ...SUBMITTED, to: "  Mo@Example.COM " },
      { ...SUBMITTED, tags: "a,b,c" },
      { ...SUBMITTED, copies: "50" }, // would demand a manager
      { ...SUBMITTED, subject: " Hello!" },
      { to: SUBMITTED.to, subject: SUBMITTED.subject, tags: SUBMITTED.tags }, // copies left to its default, 1
      {},
      "not an object",
      null,
    ];
    for (const input of otherValue) {
      const reply = await next(s.chat, answered(showing(s.first.messages, "call_mail", input), "call_mail", s.approvalId));
      expect(reply.outcomes, JSON.stringify(input)).toEqual([expect.objectContaining({ outcome: "refused" })]);
    }
    expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.sent).toEqual([]);
  });

  it("SI-5: a submitted input carrying a key the schema strips confirms only as submitted; the handler never sees the key", async () => {
    const submitted = { ...SUBMITTED, bcc: "eve@example.com" };
    const s = await firstTurn(submitted);
    expect(await s.runtime.approvals.get(s.approvalId)).toMatchObject({ input: VALIDATED, submittedInput: submitted });
    const stripped = await next(s.chat, answered(showing(s.first.messages, "call_mail", SUBMITTED), "call_mail", s.approvalId));
    expect(stripped.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    const genuine = await next(s.chat, answered(s.first.messages, "call_mail", s.approvalId));
    expect(genuine.outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
    expect(s.sent).toEqual([VALIDATED]);
  });

  it("SI-5: an approval id moved onto another call of the same tool, whose part shows its own input, is refused", async () => {
    const app = setupApp();
    const chat = await app.chatFor(dana);
    const other = { ...SUBMITTED, to: " mo@example.com " };
    const first = await chatTurn(chat, [userMessage("Mail both.")], [[toolCall("call_a", "mail_send", SUBMITTED), toolCall("call_b", "mail_send", other)], [text("Confirm both?")]]);
    const ids = Object.fromEntries(dataParts(first.messages, APPROVAL_PART_TYPE).map((card) => [(card.data as { toolCallId: string }).toolCallId, card.id as string]));
    expect(Object.keys(ids).sort()).toEqual(["call_a", "call_b"]);

    // call_b's part carrying call_a's approval: the part's input is call_b's, the record binds call_a's. call_a's
    // own part is gone, so nothing else in the conversation names that approval.
    const moved = structuredClone(first.messages).map((message) => ({ ...message, parts: message.parts.filter((part) => (part as { toolCallId?: string }).toolCallId !== "call_a") }));
    const partB = toolPart(moved, "call_b");
    if (!NATIVE) partB.output = { ...(partB.output as object), approvalId: ids.call_a };
    const reply = await next(chat, answered(moved, "call_b", ids.call_a!));
    expect(reply.outcomes).toEqual([expect.objectContaining({ approvalId: ids.call_a, toolCallId: "call_b", outcome: "refused" })]);
    expect((await app.runtime.approvals.get(ids.call_a!))?.status).toBe("pending");
    expect((await app.runtime.approvals.get(ids.call_b!))?.status).toBe("pending");
    expect(app.sent).toEqual([]);
  });
});

describe("chat confirmations are single-use and the requester's own (SI-4)", () => {
  it("SI-4: a replayed approved answer, in a later request and with the part reset to approval-responded, executes nothing more", async () => {
    const s = await firstTurn();
    const reply = answered(s.first.messages, "call_mail", s.approvalId);
    expect((await next(s.chat, reply)).outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
    for (let i = 0; i < 2; i++) {
      const replay = await next(await s.chatFor(dana), reply);
      expect(replay.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    }
    expect(s.sent).toEqual([VALIDATED]);
    expect(s.events.filter((event) => event.type === "capability.completed")).toHaveLength(1);
  });

  it("SI-4: the same answer sent by two requests at once executes once; the other is refused", async () => {
    const s = await firstTurn();
    const reply = answered(s.first.messages, "call_mail", s.approvalId);
    const [one, two] = await Promise.all([(await s.chatFor(dana)).answerConfirmations(reply.messages, reply.answers), (await s.chatFor(dana)).answerConfirmations(reply.messages, reply.answers)]);
    const outcomes = [...one.outcomes, ...two.outcomes].map((o) => o.outcome).sort();
    expect(outcomes).toEqual(["executed", "refused"]);
    expect(s.sent).toEqual([VALIDATED]);
  });

  it("SI-4: one approval id answered in two parts of one conversation executes once", async () => {
    const s = await firstTurn();
    const reply = answered(s.first.messages, "call_mail", s.approvalId);
    const doubled = structuredClone(reply.messages);
    const assistant = doubled.at(-1)!;
    const copy = structuredClone(toolPart(doubled, "call_mail"));
    copy.toolCallId = "call_mail_copy";
    (assistant.parts as unknown[]).push(copy);
    const settled = await s.chat.answerConfirmations(doubled, reply.answers);
    expect(settled.outcomes.map((o) => [o.toolCallId, o.outcome])).toEqual([
      ["call_mail", "executed"],
      ["call_mail_copy", "refused"],
    ]);
    expect(s.sent).toEqual([VALIDATED]);
  });

  it("SI-4: another user's chat sending the requester's answer is refused, whatever that user may approve elsewhere", async () => {
    const s = await firstTurn();
    const reply = await next(await s.chatFor(mo), answered(s.first.messages, "call_mail", s.approvalId));
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.sent).toEqual([]);
  });

  it("SI-4: a transformed call whose validated value demands a manager is a card, and the requester's answer to it is refused", async () => {
    const s = await firstTurn({ ...SUBMITTED, copies: "50" });
    const record = await s.runtime.approvals.get(s.approvalId);
    expect(record?.types).toEqual(expect.arrayContaining(["confirmation", "manager"]));
    expect(toolPart(s.first.messages, "call_mail").state).toBe("output-available");
    expect(dataParts(s.first.messages, APPROVAL_PART_TYPE)[0]).toMatchObject({ data: { state: "pending" } });
    const reply = await next(s.chat, answered(s.first.messages, "call_mail", s.approvalId));
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.sent).toEqual([]);
  });
});
