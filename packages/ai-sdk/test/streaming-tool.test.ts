// Issue 46: a streaming capability's tool returns an async iterable, so the SDK shows each redacted event as a
// preliminary result and the last value is the final one; the model reads only the final envelope. Runs on every
// `ai` leg (the same executeTool contract on 5, 6 and 7).
import { generateText, stepCountIs, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { toAISDKTools, type AISDKToolResult } from "../src/index.js";
import { context, dana } from "./support/app.js";
import { scriptedModel, text, toolCall, toolResultsSent } from "./support/scripted-model.js";
import { buildStreamingApp, PAGES, settleLoop } from "./support/streaming-app.js";

const REDACTED = PAGES.map(({ internalNote: _, ...rest }) => rest);

type Execute = (args: unknown, options: Record<string, unknown>) => AsyncIterable<AISDKToolResult> & AsyncIterator<AISDKToolResult>;

async function exportTool(abortSignal?: AbortSignal) {
  const app = buildStreamingApp();
  const tools = await toAISDKTools(app.runtime, { actor: dana, context });
  const execute = tools.orders_export!.execute as unknown as Execute;
  const options: Record<string, unknown> = { toolCallId: "call_export", messages: [] };
  if (abortSignal !== undefined) options.abortSignal = abortSignal;
  return { ...app, tools, iterator: execute({ customerId: "c_ada" }, options) };
}

describe("a streaming capability as an AI SDK tool", () => {
  it("streamText: each event is a preliminary { status: ok, data } (redacted), the final is the last event; the model reads the final only", async () => {
    const { runtime, events } = buildStreamingApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const { model, calls } = scriptedModel([[toolCall("call_export", "orders_export", { customerId: "c_ada" })], [text("Exported.")]]);
    const result = streamText({ model, tools, prompt: "Export Ada's orders.", stopWhen: stepCountIs(3) });
    const results: { output: unknown; preliminary?: boolean }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") results.push({ output: part.output, ...((part as { preliminary?: boolean }).preliminary === true && { preliminary: true }) });
    }
    expect(results).toEqual([
      ...REDACTED.map((data) => ({ output: { status: "ok", data }, preliminary: true })),
      { output: { status: "ok", data: REDACTED[2] } },
    ]);
    expect(JSON.stringify(results)).not.toContain("fraud score");
    expect(toolResultsSent(calls[1]!).map((r) => r.output)).toEqual([{ type: "json", value: { status: "ok", data: REDACTED[2] } }]);
    const terminal = events.find((e) => e.type === "capability.completed");
    expect(terminal?.data).toMatchObject({ events: 3 });
  });

  it("generateText: the step's tool result is the final envelope", async () => {
    const { runtime } = buildStreamingApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const { model } = scriptedModel([[toolCall("call_export", "orders_export", { customerId: "c_ada" })], [text("Exported.")]]);
    const result = await generateText({ model, tools, prompt: "Export Ada's orders.", stopWhen: stepCountIs(3) });
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([{ status: "ok", data: REDACTED[2] }]);
  });

  it("one slot: the handler is never pulled ahead of the SDK", async () => {
    const { iterator, traces } = await exportTool();
    const first = await iterator.next();
    expect(first.value).toEqual({ status: "ok", data: REDACTED[0] });
    await settleLoop();
    // The runtime waits on the first event's hand-off: the second page is not produced until the SDK asks.
    expect(traces[0]!.produced).toBe(1);
    await iterator.next();
    await settleLoop();
    expect(traces[0]!.produced).toBe(2);
    const rest: AISDKToolResult[] = [];
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) rest.push(step.value);
    // The last event is the final result: it is not yielded twice.
    expect(rest).toEqual([{ status: "ok", data: REDACTED[2] }]);
    expect(traces[0]).toMatchObject({ produced: 3, closed: true });
  });

  it("a consumer that stops (return()) cancels the call: the handler's iterator is closed and the call is audited cancelled", async () => {
    const { iterator, traces, events } = await exportTool();
    await iterator.next();
    await iterator.return?.(undefined);
    await expect.poll(() => events.some((e) => e.type === "capability.cancelled")).toBe(true);
    expect(traces[0]).toMatchObject({ produced: 1, closed: true });
    expect((await iterator.next()).done).toBe(true);
  });

  it("the SDK's abortSignal cancels the call: the final envelope is the cancellation and the handler's iterator is closed", async () => {
    const abort = new AbortController();
    const { iterator, traces } = await exportTool(abort.signal);
    expect((await iterator.next()).value).toEqual({ status: "ok", data: REDACTED[0] });
    abort.abort();
    const values: AISDKToolResult[] = [];
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) values.push(step.value);
    expect(values).toEqual([{ status: "error", error: { code: "CANCELLED", message: expect.any(String), retryable: false } }]);
    expect(traces[0]!.closed).toBe(true);
    expect(traces[0]!.produced).toBeLessThan(PAGES.length);
  });

  it("an iterable the SDK never starts runs nothing", async () => {
    const { traces, events } = await exportTool();
    await settleLoop();
    expect(traces).toEqual([]);
    expect(events.filter((e) => e.type.startsWith("capability."))).toEqual([]);
  });

  it("a write-like stream failing after its first event ends with the concealed error envelope after its preliminary result", async () => {
    const { runtime } = buildStreamingApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const iterator = (tools.ledger_sync!.execute as unknown as Execute)({}, { toolCallId: "call_sync", messages: [] });
    const values: AISDKToolResult[] = [];
    for await (const value of iterator) values.push(value);
    expect(values[0]).toEqual({ status: "ok", data: { synced: 1 } });
    expect(values.at(-1)).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    expect(JSON.stringify(values)).not.toContain("10.0.3.7");
  });

  it("a gated stream yields only the approval envelope: nothing streams before the approval", async () => {
    const { runtime } = buildStreamingApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const values: AISDKToolResult[] = [];
    for await (const value of (tools.payouts_stream!.execute as unknown as Execute)({}, { toolCallId: "call_pay", messages: [] })) values.push(value);
    expect(values).toEqual([{ status: "approval-required", approvalId: expect.stringMatching(/^apr_/), message: expect.any(String) }]);
  });

  it("toAISDKTools asks for no progress: a capability's reports go nowhere, and its result is unchanged", async () => {
    const { runtime } = buildStreamingApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const { model } = scriptedModel([[toolCall("call_report", "reports_build", {})], [text("Done.")]]);
    const result = await generateText({ model, tools, prompt: "Build the report.", stopWhen: stepCountIs(3) });
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([{ status: "ok", data: { report: "ready" } }]);
  });
});
