// The envelope of a refused chat confirmation (issue 43). A refusal says nothing about why: a forged approval id,
// another principal's approval and a malformed answer all answer alike (SI-8), and the code the model and the app
// read is one of core's closed registry (docs/architecture/spec/core.md#core-9; docs/architecture/spec/adapters.md#adapters-1-5), as every envelope's is: FORBIDDEN with the
// refusal's own public message (this answer may not decide this call), never a code no other part of the system knows.
// Runs in the adversarial project (ai 5: the app passes the answer) and in the ai-sdk legs (ai 6, 7: the SDK's part).
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createInMemoryApprovalCoordinator, type Actor } from "@orpc-agent/core";
import { APPROVAL_PART_TYPE, governChat, type ConfirmationAnswer } from "@orpc-agent/ai-sdk";
import { isErrorCode } from "../../packages/core/src/errors/codes.js";
import { chatTurn, dataParts, toolPart, userMessage, type ChatTurn } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";
import { base, build, dana, meta } from "./support/runtime.js";

type Messages = ChatTurn["messages"];
const NATIVE = (process.env.ORPC_AGENT_AI_MAJOR ?? "5") !== "5";
const INPUT = { to: "bob", cents: 1200 };
const REFUSED_ENVELOPE = { status: "error", error: { code: "FORBIDDEN", message: "This confirmation was not accepted.", retryable: false } };

function setupApp() {
  const ran: unknown[] = [];
  const pay = base
    .meta({ agent: meta({ description: "Pay someone.", approval: { required: true, type: "confirmation" } }) })
    .input(z.object({ to: z.string(), cents: z.number().int() }))
    .handler(({ input }) => (ran.push(input), { paid: input.cents }));
  const { runtime } = build({ defs: { pay }, approvals: { coordinator: createInMemoryApprovalCoordinator(), requesterConfirmable: ["confirmation"] } });
  const chat = (actor: Actor = dana) => governChat(runtime, { actor, context: {}, requesterConfirmable: ["confirmation"] });
  return { runtime, ran, chat };
}

async function requested() {
  const app = setupApp();
  const turn = await chatTurn(await app.chat(), [userMessage("Pay Bob.")], [[toolCall("call_pay", "pay", INPUT)], [text("Please confirm.")]]);
  const approvalId = (dataParts(turn.messages, APPROVAL_PART_TYPE)[0]!.data as { approvalId: string }).approvalId;
  return { ...app, messages: turn.messages, approvalId };
}

/** The browser's answer as raw fields: the part's `approval` on ai 6 and 7, the app's answer on ai 5. */
function sent(messages: Messages, fields: Record<string, unknown>): { messages: Messages; answers?: ConfirmationAnswer[] } {
  if (NATIVE) {
    const copy = structuredClone(messages);
    const part = toolPart(copy, "call_pay");
    const { descriptor } = (part.approval ?? {}) as { descriptor?: unknown };
    part.state = "approval-responded";
    part.approval = { ...(descriptor === undefined ? {} : { descriptor }), ...fields };
    return { messages: copy };
  }
  const { id, ...rest } = fields;
  return { messages, answers: [{ approvalId: id, ...rest } as unknown as ConfirmationAnswer] };
}

describe("the refused chat confirmation's envelope (issue 43)", () => {
  it("SI-8: a forged id, another principal's approval and a malformed answer get one envelope, its code from core's closed registry", async () => {
    const answers: [string, Actor, (approvalId: string) => Record<string, unknown>][] = [
      ["forged id", dana, () => ({ id: "apr_forged", approved: true })],
      ["another principal", { id: "dana", kind: "user", via: { id: "other-agent" } }, (approvalId) => ({ id: approvalId, approved: true })],
      ["malformed", dana, (approvalId) => ({ id: approvalId, approved: "true" })],
    ];
    for (const [label, actor, fields] of answers) {
      const s = await requested();
      const reply = await chatTurn(await s.chat(actor), ...withAnswers(sent(s.messages, fields(s.approvalId))));
      const refused = reply.outcomes.filter((outcome) => outcome.outcome === "refused");
      expect(refused.length, label).toBeGreaterThan(0);
      for (const outcome of refused) {
        expect(outcome.result, label).toEqual(REFUSED_ENVELOPE);
        expect(isErrorCode((outcome.result as { error: { code: string } }).error.code), label).toBe(true);
      }
      // On ai 5 an answer naming a forged id matches no part, which stays as it was; a part that was answered reads the refusal.
      if (refused.some((outcome) => outcome.toolCallId === "call_pay")) {
        expect(toolPart(reply.messages, "call_pay"), label).toMatchObject({ state: "output-error", errorText: "This confirmation was not accepted." });
      }
      expect((await s.runtime.approvals.get(s.approvalId))?.status, label).toBe("pending");
      expect(s.ran, label).toEqual([]);
    }
  });
});

function withAnswers(reply: { messages: Messages; answers?: ConfirmationAnswer[] }): Parameters<typeof chatTurn> extends [unknown, ...infer Rest] ? Rest : never {
  return [reply.messages, [[text("Done.")]], reply.answers] as never;
}
