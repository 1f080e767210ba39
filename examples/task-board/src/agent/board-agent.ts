// The Mastra agent of the task board. Its tools are the governed AI SDK tools of @orpc-agent/ai-sdk, built per
// request for the signed-in person: every call goes through the runtime, which validates, applies the policies,
// files approvals and audits.
import { toAISdkStream } from "@mastra/ai-sdk";
import { Agent, type ToolsInput } from "@mastra/core/agent";
import { governChat, type GovernedChat } from "@orpc-agent/ai-sdk";
import type { Actor, AgentRuntime } from "@orpc-agent/core";
import type { UIMessage, UIMessageChunk } from "ai";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { contextFor } from "./people.js";
import { scriptedModel } from "./scripted-model.js";

export const boardAgent = new Agent({
  id: "task-board-assistant",
  name: "Task board assistant",
  instructions: "You help people keep their task boards up to date. Use the tools; relay approvals and refusals as they are.",
  model: scriptedModel(),
});

type GovernedStream = Parameters<GovernedChat["toUIMessageStream"]>[0];

export type ChatRequest = { runtime: AgentRuntime<AppContext>; store: Store; actor: Actor; messages: UIMessage[]; signal?: AbortSignal };

/** One chat request: the agent's loop over this person's governed tools, as an AI SDK UI message stream. */
export async function streamChat({ runtime, store, actor, messages, signal }: ChatRequest): Promise<ReadableStream<UIMessageChunk>> {
  const chat = await governChat(runtime, { actor, context: contextFor(store, actor.id), ...(signal ? { signal } : {}) });
  const output = await boardAgent.stream(messages.map(withoutCards), {
    // AI SDK tools, which Mastra runs as Vercel tools; its declared union is written against its own copy of ai's types.
    toolsets: { governed: chat.tools as unknown as ToolsInput },
    // Mastra's own approval stays off for the governed tools: an approval decided by whoever answers the stream has
    // no input hash, approver rule, expiry or audit. The runtime files approvals itself (the approval-required
    // envelope, shown as a card); turning Mastra's on would add a second, weaker gate in front of it.
    requireToolApproval: false,
    maxSteps: 4,
    ...(signal ? { abortSignal: signal } : {}),
  });
  // Mastra streams its own chunks; @mastra/ai-sdk turns them into `ai` 6 UI chunks, which governChat rewrites. The
  // casts: the workspace's ai-sdk sources are typed against their folder's ai 5; at run time they load this `ai` 6
  // (src/one-ai.mjs), which is what the part states depend on.
  const chunks = toAISdkStream(output, { from: "agent", version: "v6" });
  return chat.toUIMessageStream(chunks as unknown as GovernedStream) as unknown as ReadableStream<UIMessageChunk>;
}

/** The approval cards are for people: the model already read each envelope in its tool result. */
function withoutCards(message: UIMessage): UIMessage {
  return { ...message, parts: message.parts.filter((part) => !part.type.startsWith("data-")) };
}
