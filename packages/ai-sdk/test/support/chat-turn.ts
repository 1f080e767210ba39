// One chat request as an AI SDK UI server runs it, on whichever `ai` major the leg loaded: settle the browser's
// answers through the runtime, run the real streamText loop, rewrite the UI message stream, and read it back
// with the SDK's own readUIMessageStream, continuing the last assistant message as useChat does.
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  parseJsonEventStream,
  readUIMessageStream,
  stepCountIs,
  streamText,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import type { ConfirmationAnswer, GovernedChat } from "../../src/index.js";
import { scriptedModel, type ScriptedTurn } from "./scripted-model.js";

export type ChatTurn = { messages: UIMessage[]; chunks: UIMessageChunk[]; outcomes: Awaited<ReturnType<GovernedChat["answerConfirmations"]>>["outcomes"] };

export async function chatTurn(chat: GovernedChat, messages: UIMessage[], turns: ScriptedTurn[], answers?: ConfirmationAnswer[]): Promise<ChatTurn> {
  const settled = await chat.answerConfirmations(messages, answers);
  const { model } = scriptedModel(turns);
  const result = streamText({ model, tools: chat.tools, messages: await convertToModelMessages(settled.messages), stopWhen: stepCountIs(5) });
  const seen: UIMessageChunk[] = [];
  // originalMessages: a continuation keeps the last assistant message's id, so the browser updates it in place.
  const stream = createUIMessageStream({
    originalMessages: settled.messages,
    execute: ({ writer }) => {
      for (const chunk of settled.chunks) writer.write(chunk);
      writer.merge(chat.toUIMessageStream(result.toUIMessageStream()));
    },
  });
  const last = settled.messages.at(-1);
  const continued = last?.role === "assistant" ? last : undefined;
  let final: UIMessage | undefined;
  const tapped = overTheWire(stream).pipeThrough(new TransformStream<UIMessageChunk, UIMessageChunk>({ transform: (chunk, c) => (seen.push(chunk), c.enqueue(chunk)) }));
  for await (const message of readUIMessageStream(continued ? { message: continued, stream: tapped } : { stream: tapped })) final = message;
  const before = continued ? settled.messages.slice(0, -1) : settled.messages;
  return { messages: [...before, final!], chunks: seen, outcomes: settled.outcomes };
}

/**
 * The stream as the browser receives it: the SSE response body, parsed with the loaded major's own chunk schema
 * (what its chat transport does), so a chunk that major's client would reject fails the test.
 */
function overTheWire(stream: ReadableStream<UIMessageChunk>): ReadableStream<UIMessageChunk> {
  const body = createUIMessageStreamResponse({ stream }).body!;
  return parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) throw new Error(`the client rejects a chunk: ${String(result.error)}`);
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
}

export function userMessage(text: string): UIMessage {
  return { id: `user_${text.length}_${Math.random().toString(36).slice(2)}`, role: "user", parts: [{ type: "text", text }] };
}

type AnyPart = { type: string; toolCallId?: string; state?: string; [key: string]: unknown };

/** The tool part of a call, wherever it is. */
export function toolPart(messages: UIMessage[], toolCallId: string): AnyPart {
  for (const message of messages) for (const part of message.parts as AnyPart[]) if (part.toolCallId === toolCallId) return part;
  throw new Error(`no tool part ${toolCallId}`);
}

export function dataParts(messages: UIMessage[], type: string): AnyPart[] {
  return messages.flatMap((message) => (message.parts as AnyPart[]).filter((part) => part.type === type));
}

/** What useChat's addToolApprovalResponse does to the part (ai 6, 7), on a copy of the conversation. */
export function answerInBrowser(messages: UIMessage[], toolCallId: string, answer: { id?: string; approved: boolean; reason?: string }): UIMessage[] {
  const copy = structuredClone(messages);
  const part = toolPart(copy, toolCallId) as AnyPart & { approval?: { id: string } };
  const id = answer.id ?? part.approval!.id;
  part.state = "approval-responded";
  part.approval = { ...part.approval, id, approved: answer.approved, ...(answer.reason ? { reason: answer.reason } : {}) } as never;
  return copy;
}
