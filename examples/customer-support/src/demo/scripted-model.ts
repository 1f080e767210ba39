// A stand-in for a language model: it plays a fixed script of tool calls, one per step, through the real AI SDK
// `generateText` loop, on the mock model `ai` itself ships for tests. Swap it for any provider's model and nothing
// else in the demo changes.
import { MockLanguageModelV2 } from "ai/test";

type Content = Awaited<ReturnType<MockLanguageModelV2["doGenerate"]>>["content"][number];

export type ScriptStep = { toolCalls?: { name: string; input: unknown }[]; say?: string };

export function scriptedModel(script: ScriptStep[]): MockLanguageModelV2 {
  let turn = 0;
  let callId = 0;
  return new MockLanguageModelV2({
    provider: "demo",
    modelId: "scripted-support-agent",
    async doGenerate() {
      const step = script[turn++] ?? { say: "(end of script)" };
      const content: Content[] = [];
      if (step.say) content.push({ type: "text", text: step.say });
      for (const call of step.toolCalls ?? []) {
        content.push({ type: "tool-call", toolCallId: `call_${++callId}`, toolName: call.name, input: JSON.stringify(call.input) });
      }
      return {
        content,
        finishReason: step.toolCalls?.length ? "tool-calls" : "stop",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        warnings: [],
      };
    },
  });
}
