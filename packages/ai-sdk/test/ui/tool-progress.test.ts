// Issue 46: progress of any capability reaches the chat UI through governChat's stream as transient
// `data-tool-progress` parts, between the call's input and its output; a streaming capability's events arrive as
// preliminary tool outputs. Read back over the wire with each `ai` major's own chunk schema (chatTurn).
import { describe, expect, it } from "vitest";
import { governChat, TOOL_PROGRESS_PART_TYPE, type ToolProgressData } from "../../src/index.js";
import { context, dana } from "../support/app.js";
import { chatTurn, toolPart, userMessage } from "../support/chat-turn.js";
import { text, toolCall } from "../support/scripted-model.js";
import { buildStreamingApp, PAGES } from "../support/streaming-app.js";

type Chunk = { type: string; toolCallId?: string; id?: string; data?: ToolProgressData; transient?: boolean; preliminary?: boolean; output?: unknown };

function progressOf(chunks: readonly unknown[], toolCallId: string): ToolProgressData[] {
  return (chunks as Chunk[]).filter((c) => c.type === TOOL_PROGRESS_PART_TYPE && c.data?.toolCallId === toolCallId).map((c) => c.data!);
}

/**
 * Reports are throttled by the runtime, and the chat keeps only a call's latest report until the call's input is in
 * the stream and the reader has room: whatever got through rises, and the last report always gets through. Which of
 * the earlier ones do depends on how far the stream lags the tool (the first may be replaced under load).
 */
function expectThrottledRun(reports: ToolProgressData[], total: number) {
  expect(reports.length).toBeGreaterThanOrEqual(1);
  expect(reports[0]!.progress).toBeGreaterThanOrEqual(1);
  expect(reports.at(-1)!.progress).toBe(total);
  for (let i = 1; i < reports.length; i++) expect(reports[i]!.progress).toBeGreaterThan(reports[i - 1]!.progress);
  for (const report of reports) expect(report.total).toBe(total);
}

describe("progress and preliminary results in the chat UI (governChat)", () => {
  it("a streaming capability: its events as preliminary outputs, its progress as transient data-tool-progress parts between input and output", async () => {
    const { runtime } = buildStreamingApp();
    const chat = await governChat(runtime, { actor: dana, context });
    const turn = await chatTurn(chat, [userMessage("Export Ada's orders.")], [[toolCall("call_export", "orders_export", { customerId: "c_ada" })], [text("Exported.")]]);
    const chunks = turn.chunks as unknown as Chunk[];

    const progress = progressOf(chunks, "call_export");
    expectThrottledRun(progress, PAGES.length);
    for (const report of progress) expect(report).toEqual({ toolCallId: "call_export", progress: report.progress, total: 3, message: `page ${report.progress} of 3` });
    for (const chunk of chunks.filter((c) => c.type === TOOL_PROGRESS_PART_TYPE)) expect(chunk).toMatchObject({ id: "call_export", transient: true });

    // Every report sits after the call's input and before its final output.
    const input = chunks.findIndex((c) => c.type === "tool-input-available" && c.toolCallId === "call_export");
    const final = chunks.findIndex((c) => c.type === "tool-output-available" && c.toolCallId === "call_export" && c.preliminary !== true);
    const reports = chunks.flatMap((c, index) => (c.type === TOOL_PROGRESS_PART_TYPE ? [index] : []));
    expect(input).toBeGreaterThanOrEqual(0);
    for (const index of reports) expect(index > input && index < final).toBe(true);

    const preliminary = chunks.filter((c) => c.type === "tool-output-available" && c.preliminary === true).map((c) => c.output);
    expect(preliminary).toEqual(PAGES.map(({ internalNote: _, ...data }) => ({ status: "ok", data })));
    expect(JSON.stringify(chunks)).not.toContain("fraud score");

    // Transient: the stored conversation keeps the tool part and its final output, never the reports.
    expect(JSON.stringify(turn.messages)).not.toContain(TOOL_PROGRESS_PART_TYPE);
    expect(toolPart(turn.messages, "call_export")).toMatchObject({ state: "output-available", output: { status: "ok", data: { page: 3, orders: ["o_5"] } } });
  });

  it("a plain capability's progress reaches the chat too, its last report included", async () => {
    const { runtime } = buildStreamingApp();
    const chat = await governChat(runtime, { actor: dana, context });
    const turn = await chatTurn(chat, [userMessage("Build the report.")], [[toolCall("call_report", "reports_build", {})], [text("Built.")]]);
    const progress = progressOf(turn.chunks, "call_report");
    expectThrottledRun(progress, 5);
    expect(toolPart(turn.messages, "call_report")).toMatchObject({ state: "output-available", output: { status: "ok", data: { report: "ready" } } });
  });

  it("a report carries only progress, total and message, and only for calls this stream carried", async () => {
    const { runtime } = buildStreamingApp();
    const chat = await governChat(runtime, { actor: dana, context });
    // A stream of this chat, open the whole time, that never carried the call gets none of its reports.
    let closeSource!: () => void;
    const unrelated = chat.toUIMessageStream(new ReadableStream({ start: (c) => void (closeSource = () => c.close()) }));
    const turn = await chatTurn(chat, [userMessage("Export.")], [[toolCall("call_export", "orders_export", { customerId: "c_ada" })], [text("Done.")]]);
    closeSource();
    const seen: unknown[] = [];
    for await (const chunk of unrelated as unknown as AsyncIterable<unknown>) seen.push(chunk);
    expect(seen).toEqual([]);
    expect(progressOf(turn.chunks, "call_export").length).toBeGreaterThan(0);
    for (const report of progressOf(turn.chunks, "call_export")) expect(Object.keys(report).sort()).toEqual(["message", "progress", "toolCallId", "total"]);
  });
});
