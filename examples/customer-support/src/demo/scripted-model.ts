// A stand-in for a language model: it plays a fixed script of tool calls, one per step, through the real AI SDK
// `generateText` loop. Swap it for any provider's model and nothing else in the demo changes.
import type { generateText } from "ai";

type LanguageModel = Extract<Parameters<typeof generateText>[0]["model"], { specificationVersion: "v2" }>;
type Content = Awaited<ReturnType<LanguageModel["doGenerate"]>>["content"][number];

export type ScriptStep = { toolCalls?: { name: string; input: unknown }[]; say?: string };

// ai v6+ warn that a v2 model runs in compatibility mode; that is expected here.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export function scriptedModel(script: ScriptStep[]): LanguageModel {
  let turn = 0;
  let callId = 0;
  return {
    specificationVersion: "v2",
    provider: "demo",
    modelId: "scripted-support-agent",
    supportedUrls: {},
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
    async doStream() {
      throw new Error("The demo model only scripts generateText.");
    },
  };
}
