// One chat turn as the page's useChat would see it: the Mastra agent's stream, read back with the SDK's own
// readUIMessageStream, appended to the conversation.
import { readUIMessageStream, type UIMessage } from "ai";
import { streamChat, type ChatRequest } from "../agent/board-agent.js";

export async function chatTurn(request: Omit<ChatRequest, "messages">, conversation: UIMessage[], text: string): Promise<UIMessage[]> {
  const messages: UIMessage[] = [...conversation, { id: `user_${conversation.length}`, role: "user", parts: [{ type: "text", text }] }];
  let reply: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: await streamChat({ ...request, messages }) })) reply = message;
  return reply ? [...messages, reply] : messages;
}

type AnyPart = { type: string; state?: string; output?: unknown; errorText?: string; data?: unknown; approval?: { reason?: string; descriptor?: unknown } };

/** The parts of the last message, loosely typed for printing. */
export const lastParts = (messages: UIMessage[]): AnyPart[] => (messages.at(-1)?.parts ?? []) as AnyPart[];
