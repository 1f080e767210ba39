// issue 25: requester confirmations in an AI SDK UI chat. On ai 6 and 7 the SDK's own approval parts carry the
// runtime's approval id; on ai 5 the card does and the app passes the answer. Either way every answer is a
// runtime.approvals.decide on the record bound to the input's hash, then one resume (SI-4, SI-5).
import type { UIMessage } from "ai";
import { describe, expect, it, vi } from "vitest";
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator } from "@orpc-agent/core";
import { APPROVAL_PART_TYPE, governChat, toAISDKTools, type ConfirmationAnswer, type GovernedChat } from "../../src/index.js";
import { context, dana, priya } from "../support/app.js";
import { buildChatApp } from "../support/chat-app.js";
import { answerInBrowser, chatTurn, dataParts, toolPart, userMessage } from "../support/chat-turn.js";
import { text, toolCall } from "../support/scripted-model.js";

const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";

type Setup = Awaited<ReturnType<typeof setup>>;

async function setup(input: Record<string, unknown> = { to: "c_42", text: "Your parcel ships today." }) {
  const app = buildChatApp();
  const chat = await governChat(app.runtime, { actor: dana, context, requesterConfirmable: ["confirmation"] });
  const first = await chatTurn(chat, [userMessage("Tell the customer.")], [[toolCall("call_send", "notes_send", input)], [text("Please confirm the note.")]]);
  const card = dataParts(first.messages, APPROVAL_PART_TYPE)[0]!;
  const approvalId = (card.data as { approvalId: string }).approvalId;
  return { app, chat, first, approvalId };
}

/** The browser's answer: the SDK's addToolApprovalResponse on ai 6 and 7, the app's own answer on ai 5. */
function answer(s: Setup, approved: boolean, overrides: { id?: string; toolCallId?: string; messages?: UIMessage[] } = {}): { messages: UIMessage[]; answers?: ConfirmationAnswer[] } {
  const messages = overrides.messages ?? s.first.messages;
  const approvalId = overrides.id ?? s.approvalId;
  if (NATIVE) return { messages: answerInBrowser(messages, overrides.toolCallId ?? "call_send", { id: approvalId, approved }) };
  return { messages, answers: [{ approvalId, approved }] };
}

async function continueWith(chat: GovernedChat, reply: { messages: UIMessage[]; answers?: ConfirmationAnswer[] }, say = "Done.") {
  return chatTurn(chat, reply.messages, [[text(say)]], reply.answers);
}

describe("AI SDK UI: requester confirmations", () => {
  it("a confirmation-only demand becomes the SDK's approval request (ai 6, 7) or a confirmable card (ai 5), with the runtime's approval id", async () => {
    const s = await setup();
    const part = toolPart(s.first.messages, "call_send");
    expect(s.approvalId).toMatch(/^apr_/);
    if (NATIVE) {
      expect(part).toMatchObject({ state: "approval-requested", approval: { id: s.approvalId } });
      expect(s.first.chunks).toContainEqual(expect.objectContaining({ type: "tool-approval-request", toolCallId: "call_send", approvalId: s.approvalId }));
    } else {
      expect(part).toMatchObject({ state: "output-available", output: { status: "approval-required", approvalId: s.approvalId } });
    }
    expect(dataParts(s.first.messages, APPROVAL_PART_TYPE)[0]).toMatchObject({ id: s.approvalId, data: { state: "confirmation-requested" } });
    expect(s.app.handlerRuns).toEqual([]);
  });

  it("approved: decided by the requester through the runtime, executed once, the part reads output-available with the ok envelope", async () => {
    const s = await setup();
    const second = await continueWith(s.chat, answer(s, true), "Sent.");
    expect(second.outcomes).toEqual([{ approvalId: s.approvalId, toolCallId: "call_send", outcome: "executed", result: { status: "ok", data: { sent: "c_42" } } }]);
    expect(toolPart(second.messages, "call_send")).toMatchObject({ state: "output-available", output: { status: "ok", data: { sent: "c_42" } } });
    expect(dataParts(second.messages, APPROVAL_PART_TYPE)).toEqual([expect.objectContaining({ id: s.approvalId, data: expect.objectContaining({ state: "completed" }) })]);
    expect(s.app.handlerRuns).toEqual(["notes.send:c_42"]);
    const record = await s.app.runtime.approvals.get(s.approvalId);
    expect(record).toMatchObject({ status: "consumed", decision: { status: "approved", approver: { id: "u_dana" } } });
    const types = s.app.events.filter((event) => event.capabilityId === "notes.send").map((event) => event.type);
    expect(types).toEqual(["capability.requested", "capability.approval_requested", "capability.approved", "capability.started", "capability.completed"]);
  });

  it("rejected: the runtime records the rejection, nothing runs, the part reads output-denied (ai 6, 7) or output-error (ai 5)", async () => {
    const s = await setup();
    const second = await continueWith(s.chat, answer(s, false), "Not sent.");
    expect(second.outcomes[0]).toMatchObject({ outcome: "rejected", result: { status: "error", error: { code: "APPROVAL_REJECTED" } } });
    expect(toolPart(second.messages, "call_send").state).toBe(NATIVE ? "output-denied" : "output-error");
    expect((await s.app.runtime.approvals.get(s.approvalId))?.status).toBe("rejected");
    expect(s.app.events.some((event) => event.type === "capability.rejected")).toBe(true);
    expect(s.app.handlerRuns).toEqual([]);
  });

  it("SI-4: replayed: the same approved answer sent again is refused and executes nothing", async () => {
    const s = await setup();
    const reply = answer(s, true);
    await continueWith(s.chat, reply);
    const replay = await continueWith(s.chat, reply, "Again?");
    expect(replay.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect(toolPart(replay.messages, "call_send")).toMatchObject({ state: "output-error", errorText: "This confirmation was not accepted." });
    expect(s.app.handlerRuns).toEqual(["notes.send:c_42"]);
  });

  it("SI-4: forged: an answer for an approval id the runtime never created is refused; nothing is decided or run", async () => {
    const s = await setup();
    const forged = await continueWith(s.chat, answer(s, true, { id: "apr_00000000-0000-4000-8000-000000000000" }));
    expect(forged.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    // ai 5: the answer named no call of the conversation, so the card stays as it was.
    expect(toolPart(forged.messages, "call_send").state).toBe(NATIVE ? "output-error" : "output-available");
    expect((await s.app.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.app.handlerRuns).toEqual([]);
    expect(s.app.events.some((event) => event.type === "capability.approved")).toBe(false);
  });

  it("SI-4: an answer that puts the approval id on another tool's call is refused", async () => {
    const s = await setup();
    const moved = structuredClone(s.first.messages);
    const part = toolPart(moved, "call_send");
    // Same input, another capability: the record names notes.send, the part orders_get.
    part.type = "tool-orders_get";
    if (!NATIVE) part.output = { status: "approval-required", approvalId: s.approvalId, message: "Awaiting approval." };
    const reply = await continueWith(s.chat, answer(s, true, { messages: moved }));
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.app.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.app.handlerRuns).toEqual([]);
  });

  it("SI-5: an answer whose part shows other input than the record binds is refused", async () => {
    const s = await setup();
    const tampered = structuredClone(s.first.messages);
    toolPart(tampered, "call_send").input = { to: "c_99", text: "Your parcel ships today." };
    const reply = await continueWith(s.chat, answer(s, true, { messages: tampered }));
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.app.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.app.handlerRuns).toEqual([]);
  });

  it("SI-5: a transformed input (trim) confirms: the part shows what was submitted, the record binds it as submittedInput, the handler gets the approved value", async () => {
    const s = await setup({ to: "c_42", text: "  Your parcel ships today.  " });
    const record = await s.app.runtime.approvals.get(s.approvalId);
    expect(record).toMatchObject({ input: { text: "Your parcel ships today." }, submittedInput: { text: "  Your parcel ships today.  " } });
    const second = await continueWith(s.chat, answer(s, true), "Sent.");
    expect(second.outcomes).toEqual([expect.objectContaining({ outcome: "executed", result: { status: "ok", data: { sent: "c_42" } } })]);
    expect(s.app.sentTexts).toEqual(["Your parcel ships today."]);
  });

  it("SI-5: the part showing the validated instead of the submitted input is other input: refused", async () => {
    const s = await setup({ to: "c_42", text: "  Hi.  " });
    const tampered = structuredClone(s.first.messages);
    toolPart(tampered, "call_send").input = { to: "c_42", text: "Hi." };
    const reply = await continueWith(s.chat, answer(s, true, { messages: tampered }));
    expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.app.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
    expect(s.app.handlerRuns).toEqual([]);
  });

  it("SI-5: a coordinator that keeps no submittedInput binds the validated input: untransformed confirms, transformed is refused", async () => {
    const inner = createInMemoryApprovalCoordinator();
    // A custom coordinator stores what it knows; this one drops the submitted copy (ADR-020's fallback).
    const coordinator: ApprovalCoordinator = {
      create: ({ submittedInput: _, ...request }) => inner.create(request),
      get: (id) => inner.get(id),
      decide: (id, decision) => inner.decide(id, decision),
      markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
    };
    // A custom store is taken as persistent: the runtime warns once that it is unsealed (W4), captured here.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const app = buildChatApp({ requesterConfirmable: ["confirmation"], coordinator });
    const warnings = warn.mock.calls.map((args) => String(args[0]));
    warn.mockRestore();
    expect(warnings).toEqual([expect.stringMatching(/^\[orpc-agent\] approvals for [\w., ]*notes\.send[\w., ]* are kept by a persistent coordinator without approvals\.seal/)]);
    const chat = await governChat(app.runtime, { actor: dana, context, requesterConfirmable: ["confirmation"] });
    const turn = (input: object, id: string) => chatTurn(chat, [userMessage("Tell them.")], [[toolCall(id, "notes_send", input)], [text("Confirm?")]]);
    const reply = async (t: Awaited<ReturnType<typeof turn>>, id: string) => {
      const approvalId = (dataParts(t.messages, APPROVAL_PART_TYPE)[0]!.data as { approvalId: string }).approvalId;
      expect((await app.runtime.approvals.get(approvalId))?.submittedInput).toBeUndefined();
      const r = NATIVE ? { messages: answerInBrowser(t.messages, id, { id: approvalId, approved: true }) } : { messages: t.messages, answers: [{ approvalId, approved: true }] };
      return continueWith(chat, r);
    };
    expect((await reply(await turn({ to: "c_1", text: "Plain." }, "call_plain"), "call_plain")).outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
    expect((await reply(await turn({ to: "c_2", text: " Padded. " }, "call_padded"), "call_padded")).outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect(app.handlerRuns).toEqual(["notes.send:c_1"]);
  });

  it("SI-4: no browser answer covers a manager-type demand: not a manager-only record, not one merging confirmation and manager", async () => {
    const s = await setup();
    // A refund (manager) in the same conversation, answered as if it were a confirmation.
    const refund = await chatTurn(s.chat, [userMessage("Refund o1.")], [[toolCall("call_refund", "orders_refund", { orderId: "o1", amount: 5 })], [text("A manager decides.")]]);
    const refundId = (toolPart(refund.messages, "call_refund").output as { approvalId: string }).approvalId;
    const forgedRefund = NATIVE
      ? { messages: answerInBrowser(refund.messages, "call_refund", { id: refundId, approved: true }) }
      : { messages: refund.messages, answers: [{ approvalId: refundId, approved: true }] };
    expect((await continueWith(s.chat, forgedRefund)).outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.app.runtime.approvals.get(refundId))?.status).toBe("pending");

    // A large send demands confirmation and a manager: it is a card, never an SDK approval request, and answers are refused.
    const large = await chatTurn(s.chat, [userMessage("Credit them.")], [[toolCall("call_large", "notes_send", { to: "c_42", text: "Credit.", amount: 500 })], [text("A manager decides.")]]);
    const largeId = (toolPart(large.messages, "call_large").output as { approvalId: string }).approvalId;
    expect(toolPart(large.messages, "call_large").state).toBe("output-available");
    expect(dataParts(large.messages, APPROVAL_PART_TYPE)[0]).toMatchObject({ id: largeId, data: { state: "pending" } });
    const forgedLarge = NATIVE
      ? { messages: answerInBrowser(large.messages, "call_large", { id: largeId, approved: true }) }
      : { messages: large.messages, answers: [{ approvalId: largeId, approved: true }] };
    expect((await continueWith(s.chat, forgedLarge)).outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await s.app.runtime.approvals.get(largeId))?.status).toBe("pending");
    // The runtime itself refuses the requester too, whatever the adapter did.
    await expect(s.app.runtime.approvals.decide(largeId, { status: "approved", approver: dana })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    expect(s.app.handlerRuns).toEqual([]);

    // A manager can still decide both.
    await s.app.runtime.approvals.decide(largeId, { status: "approved", approver: priya });
    expect(await s.app.runtime.resume(largeId, { context, expectedActor: dana, expectedSurface: "aiSdk" })).toMatchObject({ status: "completed" });
  });

  it("SI-4: on a runtime that turned self-approval off entirely, the adapter still refuses a browser answer to a manager-type demand", async () => {
    const app = buildChatApp({ rejectSelfApproval: false });
    const chat = await governChat(app.runtime, { actor: dana, context, requesterConfirmable: ["confirmation"] });
    const refund = await chatTurn(chat, [userMessage("Refund o1.")], [[toolCall("call_refund", "orders_refund", { orderId: "o1", amount: 5 })], [text("A manager decides.")]]);
    const refundId = (toolPart(refund.messages, "call_refund").output as { approvalId: string }).approvalId;
    const forged = NATIVE
      ? { messages: answerInBrowser(refund.messages, "call_refund", { id: refundId, approved: true }) }
      : { messages: refund.messages, answers: [{ approvalId: refundId, approved: true }] };
    expect((await continueWith(chat, forged)).outcomes).toEqual([expect.objectContaining({ outcome: "refused" })]);
    expect((await app.runtime.approvals.get(refundId))?.status).toBe("pending");
    expect(app.handlerRuns).toEqual([]);
  });

  it("parts of the app's own tools are left alone; an approval-responded part of a governed tool is always settled", async () => {
    const s = await setup();
    const own = { type: "tool-app_lookup", toolCallId: "call_own", state: "approval-responded", input: {}, approval: { id: "sdk_1", approved: true } };
    const governed = { type: "tool-orders_get", toolCallId: "call_get", state: "approval-responded", input: { orderId: "o1" }, approval: { id: "sdk_2", approved: true } };
    const conversation = [{ id: "a1", role: "assistant", parts: [own, governed] }] as unknown as UIMessage[];
    const settled = await s.chat.answerConfirmations(conversation);
    expect(settled.messages[0]!.parts[0]).toEqual(own);
    expect(settled.messages[0]!.parts[1]).toMatchObject({ state: "output-error", errorText: "This confirmation was not accepted." });
    expect(settled.outcomes).toEqual([expect.objectContaining({ approvalId: "sdk_2", outcome: "refused" })]);
    expect(s.app.handlerRuns).toEqual([]);
  });

  it("default unchanged: without requesterConfirmable nothing becomes an SDK approval request, and toAISDKTools sets no approval on any tool", async () => {
    const app = buildChatApp();
    const chat = await governChat(app.runtime, { actor: dana, context });
    const turn = await chatTurn(chat, [userMessage("Tell them.")], [[toolCall("call_send", "notes_send", { to: "c_42", text: "Hi." })], [text("Waiting.")]]);
    expect(turn.chunks.some((chunk) => (chunk.type as string) === "tool-approval-request")).toBe(false);
    expect(toolPart(turn.messages, "call_send")).toMatchObject({ state: "output-available", output: { status: "approval-required" } });
    expect(dataParts(turn.messages, APPROVAL_PART_TYPE)[0]).toMatchObject({ data: { state: "pending" } });
    for (const tool of Object.values(await toAISDKTools(app.runtime, { actor: dana, context }))) expect((tool as { needsApproval?: unknown }).needsApproval).toBeUndefined();
    for (const tool of Object.values(chat.tools)) expect((tool as { needsApproval?: unknown }).needsApproval).toBeUndefined();
  });
});
