// An AI SDK UI chat request as an app's chat route serves it, for Dana: the browser's answers settled through the
// runtime, then the real streamText loop on a scripted model (the script comes with the request: there is no
// model in the suite), the UI message stream read back as the browser would. Answers with the conversation.
import type { AgentRuntime } from "../../../packages/core/src/index.ts";
import { governChat, type ConfirmationAnswer } from "../../../packages/ai-sdk/src/index.ts";
import { chatTurn } from "../../../packages/ai-sdk/test/support/chat-turn.ts";
import type { ScriptedTurn } from "../../../packages/ai-sdk/test/support/scripted-model.ts";

type UIMessage = Parameters<typeof chatTurn>[1][number];
export type ChatRequest = { messages: UIMessage[]; answers?: ConfirmationAnswer[]; turns: ScriptedTurn[] };

export async function chatRequest(runtime: AgentRuntime<unknown>, body: ChatRequest) {
  const chat = await governChat(runtime, { actor: { id: "u_dana", kind: "user" }, context: {}, requesterConfirmable: ["confirmation"] });
  const turn = await chatTurn(chat, body.messages, body.turns, body.answers);
  return { messages: turn.messages, outcomes: turn.outcomes };
}
