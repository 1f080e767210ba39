// A stand-in for a language model: it plays a fixed script of tool calls, one per step, through the real AI SDK
// `generateText` and `streamText` loops, on the mock model `ai` itself ships for tests. Swap it for any provider's
// model and nothing else in the demo changes.
import { MockLanguageModelV2 } from "ai/test";

type Content = Awaited<ReturnType<MockLanguageModelV2["doGenerate"]>>["content"][number];
type StreamPart = Awaited<ReturnType<MockLanguageModelV2["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

export type ScriptStep = { toolCalls?: { name: string; input: unknown }[]; say?: string };

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

export function scriptedModel(script: ScriptStep[]): MockLanguageModelV2 {
  let turn = 0;
  let callId = 0;
  const next = () => {
    const step = script[turn++] ?? { say: "(end of script)" };
    const content: Content[] = [];
    if (step.say) content.push({ type: "text", text: step.say });
    for (const call of step.toolCalls ?? []) {
      content.push({ type: "tool-call", toolCallId: `call_${++callId}`, toolName: call.name, input: JSON.stringify(call.input) });
    }
    return { content, finishReason: step.toolCalls?.length ? ("tool-calls" as const) : ("stop" as const) };
  };
  return new MockLanguageModelV2({
    provider: "demo",
    modelId: "scripted-support-agent",
    async doGenerate() {
      const { content, finishReason } = next();
      return { content, finishReason, usage: USAGE, warnings: [] };
    },
    // streamText plays the same script: each content part as its stream parts, then `finish`.
    async doStream() {
      const { content, finishReason } = next();
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      content.forEach((part, index) => {
        if (part.type === "text") parts.push({ type: "text-start", id: `t${index}` }, { type: "text-delta", id: `t${index}`, delta: part.text }, { type: "text-end", id: `t${index}` });
        else parts.push(part as StreamPart);
      });
      parts.push({ type: "finish", finishReason, usage: USAGE });
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}
