// SI-4 for malformed and misplaced chat confirmations (issue 43, finding 5). An answer decides a record only when it
// is well formed: an approval id (a non-empty string), `approved` a boolean, `reason` absent or a string; an answer
// the app passes itself (`ConfirmationAnswer`) has no other keys. Anything else is refused: nothing is decided,
// nothing runs, the record stays pending and the genuine answer still works. Answers naming another conversation's
// request, replayed, doubled, or for a record already decided are refused too, and never change the record.
// Runs in the adversarial project (ai 5: the app passes the answer) and in the ai-sdk legs (ai 6, 7: the SDK's part).
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createInMemoryApprovalCoordinator } from "@orpc-agent/core";
import { APPROVAL_PART_TYPE, governChat, type ConfirmationAnswer } from "@orpc-agent/ai-sdk";
import { chatTurn, dataParts, toolPart, userMessage, type ChatTurn } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";
import { base, build, dana, meta, mo } from "./support/runtime.js";

type Messages = ChatTurn["messages"];
const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";
const INPUT = { to: "bob", cents: 1200 };
const REFUSED = "This confirmation was not accepted.";

function setupApp() {
  const ran: unknown[] = [];
  const pay = base
    .meta({ agent: meta({ description: "Pay someone.", approval: { required: true, type: "confirmation" } }) })
    .input(z.object({ to: z.string(), cents: z.number().int() }))
    .handler(({ input }) => (ran.push(input), { paid: input.cents }));
  const note = base
    .meta({ agent: meta({ description: "Leave a note.", approval: { required: true, type: "confirmation" } }) })
    .input(z.object({ to: z.string(), cents: z.number().int() }))
    .handler(({ input }) => (ran.push({ note: input }), { noted: true }));
  const { runtime, events } = build({
    defs: { pay, note },
    approvals: { coordinator: createInMemoryApprovalCoordinator(), requesterConfirmable: ["confirmation"] },
  });
  const chat = () => governChat(runtime, { actor: dana, context: {}, requesterConfirmable: ["confirmation"] });
  return { runtime, events, ran, chat };
}

async function conversation(app: ReturnType<typeof setupApp>, call: { toolCallId: string; tool: string; input: object } = { toolCallId: "call_pay", tool: "pay", input: INPUT }) {
  const turn = await chatTurn(await app.chat(), [userMessage("Pay Bob.")], [[toolCall(call.toolCallId, call.tool, call.input)], [text("Please confirm.")]]);
  const approvalId = (dataParts(turn.messages, APPROVAL_PART_TYPE)[0]!.data as { approvalId: string }).approvalId;
  return { messages: turn.messages, approvalId };
}

async function requested() {
  const app = setupApp();
  return { ...app, ...(await conversation(app)) };
}

/**
 * The browser's answer as raw fields. On ai 6 and 7 they become the part's `approval` exactly as sent (what a client
 * could put there instead of addToolApprovalResponse's); on ai 5 they are the app's answer, `approvalId` for `id`.
 */
function sent(messages: Messages, fields: Record<string, unknown>, toolCallId = "call_pay"): { messages: Messages; answers?: ConfirmationAnswer[] } {
  if (NATIVE) {
    const copy = structuredClone(messages);
    const part = toolPart(copy, toolCallId);
    const { descriptor } = (part.approval ?? {}) as { descriptor?: unknown };
    part.state = "approval-responded";
    part.approval = { ...(descriptor === undefined ? {} : { descriptor }), ...fields };
    return { messages: copy };
  }
  const { id, ...rest } = fields;
  return { messages, answers: [{ ...(Object.hasOwn(fields, "id") ? { approvalId: id } : {}), ...rest } as unknown as ConfirmationAnswer] };
}

function next(app: ReturnType<typeof setupApp>, reply: { messages: Messages; answers?: ConfirmationAnswer[] }) {
  return app.chat().then((chat) => chatTurn(chat, reply.messages, [[text("Done.")]], reply.answers));
}

const decisions = (events: { type: string }[]) => events.filter((event) => event.type === "capability.approved" || event.type === "capability.rejected");

/** Nothing was decided or run, and the genuine answer then confirms and executes once. */
async function expectUntouchedThenGenuine(s: Awaited<ReturnType<typeof requested>>) {
  expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("pending");
  expect(decisions(s.events)).toEqual([]);
  expect(s.ran).toEqual([]);
  const genuine = await next(s, sent(s.messages, { id: s.approvalId, approved: true }));
  expect(genuine.outcomes).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "executed" })]);
  expect(s.ran).toEqual([INPUT]);
}

describe("a malformed answer is refused without deciding anything (SI-4)", () => {
  it('SI-4: approved that is not a boolean ("true", "false", 1, 0, null, an object, an array, missing) is refused; the record stays pending', async () => {
    const s = await requested();
    const shapes: Record<string, unknown>[] = [
      { id: s.approvalId, approved: "true" },
      { id: s.approvalId, approved: "false" },
      { id: s.approvalId, approved: 1 },
      { id: s.approvalId, approved: 0 },
      { id: s.approvalId, approved: null },
      { id: s.approvalId, approved: {} },
      { id: s.approvalId, approved: [true] },
      { id: s.approvalId },
    ];
    for (const fields of shapes) {
      const reply = await next(s, sent(s.messages, fields));
      expect(reply.outcomes, JSON.stringify(fields)).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "refused" })]);
      expect(toolPart(reply.messages, "call_pay"), JSON.stringify(fields)).toMatchObject({ state: "output-error", errorText: REFUSED });
    }
    await expectUntouchedThenGenuine(s);
  });

  it("SI-4: a reason that is not a string (a number, null, an object, an array) is refused, whether the answer approves or rejects", async () => {
    const s = await requested();
    for (const reason of [42, null, { text: "ok" }, ["ok"]]) {
      for (const approved of [true, false]) {
        const reply = await next(s, sent(s.messages, { id: s.approvalId, approved, reason }));
        expect(reply.outcomes, JSON.stringify({ reason, approved })).toEqual([expect.objectContaining({ outcome: "refused" })]);
      }
    }
    await expectUntouchedThenGenuine(s);
  });

  it("SI-4: an answer without an approval id, or with one that is empty or not a string, is refused and decides nothing", async () => {
    const s = await requested();
    for (const fields of [{ approved: true }, { id: "", approved: true }, { id: 42, approved: true }, { id: null, approved: true }, { id: [s.approvalId], approved: true }]) {
      const reply = await next(s, sent(s.messages, fields));
      expect(reply.outcomes.map((o) => o.outcome), JSON.stringify(fields)).toEqual(["refused"]);
    }
    await expectUntouchedThenGenuine(s);
  });

  it("SI-4: the app's answer with keys beyond approvalId, approved and reason (an approver, an actor, an input) is refused", async () => {
    const s = await requested();
    const extras: Record<string, unknown>[] = [{ approver: { id: "mo", kind: "user" } }, { actor: { id: "mo", kind: "user" } }, { input: { to: "eve", cents: 99_999 } }, { approvalId2: s.approvalId }];
    for (const extra of extras) {
      const answers = [{ approvalId: s.approvalId, approved: true, ...extra }] as unknown as ConfirmationAnswer[];
      const settled = await (await s.chat()).answerConfirmations(s.messages, answers);
      expect(settled.outcomes.map((o) => o.outcome), JSON.stringify(extra)).toEqual(["refused"]);
    }
    await expectUntouchedThenGenuine(s);
  });

  it("SI-4: the app's answers that are not a list, or list something that is not an answer, are refused without throwing", async () => {
    const s = await requested();
    const chat = await s.chat();
    for (const answers of [null, "yes", 1, { approvalId: s.approvalId, approved: true }, [null], ["yes"], [[s.approvalId, true]]]) {
      const settled = await chat.answerConfirmations(s.messages, answers as unknown as ConfirmationAnswer[]);
      expect(settled.outcomes.map((o) => o.outcome), JSON.stringify(answers)).toEqual(["refused"]);
    }
    await expectUntouchedThenGenuine(s);
  });

  if (NATIVE) {
    it("SI-4: keys the SDK's approval object may carry besides id, approved and reason give no authority: an approver key naming someone else leaves the decision the chat's actor's", async () => {
      const s = await requested();
      const reply = await next(s, sent(s.messages, { id: s.approvalId, approved: true, approver: { id: "mo", kind: "user" }, isAutomatic: false }));
      expect(reply.outcomes).toEqual([expect.objectContaining({ outcome: "executed" })]);
      expect((await s.runtime.approvals.get(s.approvalId))?.decision?.approver).toMatchObject({ id: dana.id, kind: dana.kind });
    });

    it("SI-4: a governed part answered with a tool-call id that is not a string is settled and refused, never left for the SDK to act on", async () => {
      const s = await requested();
      const reply = sent(s.messages, { id: s.approvalId, approved: true });
      const part = toolPart(reply.messages, "call_pay");
      part.toolCallId = 7 as unknown as string;
      const settled = await (await s.chat()).answerConfirmations(reply.messages);
      expect(settled.outcomes).toEqual([expect.objectContaining({ approvalId: s.approvalId, outcome: "refused" })]);
      const after = settled.messages.flatMap((m) => m.parts as { state?: string }[]);
      expect(after.some((p) => p.state === "approval-responded")).toBe(false);
      await expectUntouchedThenGenuine(s);
    });
  }
});

describe("misplaced answers are refused and change no record (SI-4)", () => {
  it("SI-4: the approval id of another conversation's request, for another tool or other input, is refused; both records stay pending", async () => {
    const s = await requested();
    const otherInput = await conversation(s, { toolCallId: "call_other", tool: "pay", input: { to: "eve", cents: 99_999 } });
    const otherTool = await conversation(s, { toolCallId: "call_note", tool: "note", input: INPUT });
    for (const other of [otherInput, otherTool]) {
      if (!NATIVE) {
        // ai 5: the envelope on this conversation's part names the other request, as a client could rewrite it.
        const moved = structuredClone(s.messages);
        const part = toolPart(moved, "call_pay");
        part.output = { ...(part.output as object), approvalId: other.approvalId };
        const reply = await next(s, { messages: moved, answers: [{ approvalId: other.approvalId, approved: true }] });
        expect(reply.outcomes.map((o) => o.outcome)).toEqual(["refused"]);
      } else {
        const reply = await next(s, sent(s.messages, { id: other.approvalId, approved: true }));
        expect(reply.outcomes.map((o) => o.outcome)).toEqual(["refused"]);
      }
      expect((await s.runtime.approvals.get(other.approvalId))?.status).toBe("pending");
    }
    await expectUntouchedThenGenuine(s);
  });

  it("SI-4: two answers for one approval in one request: the first decides, the other is refused; approve-then-reject executes once, reject-then-approve runs nothing", async () => {
    for (const [first, second] of [
      [true, false],
      [false, true],
    ]) {
      const s = await requested();
      let outcomes;
      if (NATIVE) {
        // The same approval answered in two parts of the conversation.
        const reply = sent(s.messages, { id: s.approvalId, approved: first });
        const copy = structuredClone(toolPart(reply.messages, "call_pay"));
        copy.toolCallId = "call_pay_again";
        copy.approval = { ...(copy.approval as object), approved: second };
        (reply.messages.at(-1)!.parts as unknown[]).push(copy);
        outcomes = (await (await s.chat()).answerConfirmations(reply.messages)).outcomes;
      } else {
        const answers = [
          { approvalId: s.approvalId, approved: first },
          { approvalId: s.approvalId, approved: second },
        ];
        outcomes = (await (await s.chat()).answerConfirmations(s.messages, answers)).outcomes;
      }
      expect(outcomes.map((o) => o.outcome).sort()).toEqual([first ? "executed" : "rejected", "refused"].sort());
      expect(s.ran).toEqual(first ? [INPUT] : []);
      expect(decisions(s.events)).toHaveLength(1);
      expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe(first ? "consumed" : "rejected");
    }
  });

  it("SI-4: a rejection replayed in a later request is refused; the record stays rejected with one decision", async () => {
    const s = await requested();
    const reply = sent(s.messages, { id: s.approvalId, approved: false });
    expect((await next(s, reply)).outcomes.map((o) => o.outcome)).toEqual(["rejected"]);
    for (const fields of [{ id: s.approvalId, approved: false }, { id: s.approvalId, approved: true }]) {
      expect((await next(s, sent(s.messages, fields))).outcomes.map((o) => o.outcome)).toEqual(["refused"]);
    }
    expect((await s.runtime.approvals.get(s.approvalId))?.status).toBe("rejected");
    expect(decisions(s.events)).toHaveLength(1);
    expect(s.ran).toEqual([]);
  });

  it("SI-4: an answer for a record someone already decided in the app is refused: it neither changes the decision nor runs the call", async () => {
    for (const status of ["approved", "rejected"] as const) {
      const s = await requested();
      await s.runtime.approvals.decide(s.approvalId, { status, approver: mo });
      for (const approved of [true, false]) {
        const reply = await next(s, sent(s.messages, { id: s.approvalId, approved }));
        expect(reply.outcomes.map((o) => o.outcome), `${status} then ${approved}`).toEqual(["refused"]);
      }
      const record = await s.runtime.approvals.get(s.approvalId);
      expect(record).toMatchObject({ status, decision: { approver: { id: mo.id } } });
      expect(decisions(s.events)).toHaveLength(1);
      expect(s.ran).toEqual([]);
    }
  });
});
