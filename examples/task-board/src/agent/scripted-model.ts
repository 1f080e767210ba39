// A stand-in for a language model, so the example runs offline with no API key: it reads the conversation and
// answers with the tool call or the sentence a model would, through `ai`'s own mock model. Swap it for any
// provider's model (`model: "openai/gpt-5-mini"` on the Mastra agent) and nothing else changes.
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

type CallOptions = Parameters<MockLanguageModelV3["doStream"]>[0];
type Prompt = CallOptions["prompt"];
type StreamPart = Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
type ToolCall = { toolName: string; input: unknown };

/** What the user may ask, and the call the model makes for it. Phrases are matched case-insensitively. */
const RULES: { when: RegExp; call: ToolCall }[] = [
  { when: /on-call keys.*done|done.*on-call keys/i, call: { toolName: "tasks_move", input: { taskId: "t_keys", status: "done" } } },
  { when: /release notes.*done|done.*release notes/i, call: { toolName: "tasks_move", input: { taskId: "t_notes", status: "done" } } },
  { when: /delete the ops board/i, call: { toolName: "boards_delete", input: { boardId: "b_ops" } } },
  { when: /reindex/i, call: { toolName: "internal_reindex", input: {} } },
  { when: /what.*board|list.*board/i, call: { toolName: "boards_list", input: {} } },
];

/** The model's next turn: a tool call for a new request, or a sentence about the tool result it just read. */
export function nextTurn(prompt: Prompt, toolNames: ReadonlySet<string>): { call?: ToolCall; text?: string } {
  const last = prompt.at(-1);
  if (last?.role === "tool") {
    const result = last.content.findLast((part) => part.type === "tool-result");
    return { text: summarize(result?.type === "tool-result" ? result.output : undefined) };
  }
  const said = last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join(" ") : "";
  const rule = RULES.find((r) => r.when.test(said));
  if (!rule) return { text: "I can list the boards, move or assign tasks. What should I do?" };
  // A model only calls tools it was given: a capability hidden from this user is not among them.
  if (!toolNames.has(rule.call.toolName)) return { text: "I have no tool for that." };
  return { call: rule.call };
}

function summarize(output: unknown): string {
  const value = (output as { type?: string; value?: unknown } | undefined)?.type === "json" ? (output as { value: unknown }).value : output;
  const envelope = value as { status?: string; message?: string; error?: { message?: string } } | undefined;
  if (envelope?.status === "ok") return "Done.";
  if (envelope?.status === "approval-required") return `${envelope.message ?? "It needs an approval."} I'll wait for the decision.`;
  if (envelope?.status === "error") return `I couldn't do that: ${envelope.error?.message ?? "it was refused."}`;
  return "The tool answered something I did not expect.";
}

let callIds = 0;

/** The scripted model over `ai`'s MockLanguageModelV3 (a LanguageModelV3, which Mastra agents accept). */
export function scriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "scripted",
    modelId: "task-board-agent",
    doStream: async ({ prompt, tools }: CallOptions) => {
      const turn = nextTurn(prompt, new Set((tools ?? []).map((tool) => tool.name)));
      const chunks: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (turn.call) {
        chunks.push({ type: "tool-call", toolCallId: `call_${++callIds}`, toolName: turn.call.toolName, input: JSON.stringify(turn.call.input) });
      } else {
        chunks.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: turn.text ?? "" }, { type: "text-end", id: "t" });
      }
      const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
      chunks.push({ type: "finish", finishReason: { unified: turn.call ? "tool-calls" : "stop", raw: undefined }, usage });
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
