// One hand-written LanguageModelV2 that every `ai` major accepts (v6 and v7 in compatibility mode), so the same
// script drives the real generateText loop on every leg (docs/architecture/spec/adapters.md#adapters-2-1, docs/architecture/spec/adapters.md#adapters-2-7 (8)). The types come from the
// loaded `ai` itself, so each leg checks the model against its own major.
import type { generateText } from "ai";

type LanguageModel = Parameters<typeof generateText>[0]["model"];
export type ScriptedLanguageModel = Extract<LanguageModel, { specificationVersion: "v2" }>;
export type ModelCall = Parameters<ScriptedLanguageModel["doGenerate"]>[0];
type Generated = Awaited<ReturnType<ScriptedLanguageModel["doGenerate"]>>;
export type ModelContent = Generated["content"][number];
type StreamPart = Awaited<ReturnType<ScriptedLanguageModel["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

/** One model turn: fixed content, or content computed from what the model was sent. */
export type ScriptedTurn = ModelContent[] | ((call: ModelCall) => ModelContent[]);

// v6 and v7 announce the compatibility mode on every call; the warning says nothing about the adapter.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export function toolCall(toolCallId: string, toolName: string, input: unknown): ModelContent {
  return { type: "tool-call", toolCallId, toolName, input: typeof input === "string" ? input : JSON.stringify(input) };
}

export function text(value: string): ModelContent {
  return { type: "text", text: value };
}

/**
 * A model that plays `turns` in order, one per step, and records every call it receives; `generateText` and `streamText` alike. Running out of turns
 * is a test bug and throws.
 */
export function scriptedModel(turns: ScriptedTurn[]): { model: ScriptedLanguageModel; calls: ModelCall[] } {
  const calls: ModelCall[] = [];
  const model: ScriptedLanguageModel = {
    specificationVersion: "v2",
    provider: "orpc-agent-test",
    modelId: "scripted",
    supportedUrls: {},
    async doGenerate(call) {
      calls.push(call);
      const turn = turns[calls.length - 1];
      if (turn === undefined) throw new Error(`scripted model: no turn ${calls.length} in the script`);
      const content = typeof turn === "function" ? turn(call) : turn;
      return {
        content,
        finishReason: content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        warnings: [],
      };
    },
    // streamText plays the same turns: each content part as its stream parts, then `finish`.
    async doStream(call) {
      calls.push(call);
      const turn = turns[calls.length - 1];
      if (turn === undefined) throw new Error(`scripted model: no turn ${calls.length} in the script`);
      const content = typeof turn === "function" ? turn(call) : turn;
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      content.forEach((part, index) => {
        if (part.type === "text") {
          const id = `text_${calls.length}_${index}`;
          parts.push({ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id });
        } else parts.push(part as StreamPart);
      });
      parts.push({ type: "finish", finishReason: content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop", usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } });
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
  return { model, calls };
}

/** The tool results the model was sent in a call, as `{ toolName, output }` (the provider-facing shape). */
export function toolResultsSent(call: ModelCall): { toolCallId: string; toolName: string; output: unknown }[] {
  const results: { toolCallId: string; toolName: string; output: unknown }[] = [];
  for (const message of call.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") results.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: part.output });
    }
  }
  return results;
}
