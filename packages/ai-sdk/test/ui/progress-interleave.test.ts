// The progress placement of governChat's stream (issue 46): bounded however fast a handler reports and however slowly
// the browser reads, the latest report kept per call, nothing for a call after its output.
import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { governUIMessageStream } from "../../src/ui/govern-ui-stream.js";
import { PROGRESS_HIGH_WATER_MARK } from "../../src/ui/progress-interleave.js";
import { createProgressRelay } from "../../src/ui/progress-relay.js";
import { settleLoop } from "../support/streaming-app.js";

function setup() {
  const relay = createProgressRelay();
  let source!: ReadableStreamDefaultController<UIMessageChunk>;
  const input = new ReadableStream<UIMessageChunk>({ start: (c) => void (source = c) });
  const output = governUIMessageStream(input, { toolNames: new Set(["export"]), isConfirmable: () => false, progress: relay });
  const send = (chunk: Record<string, unknown>) => source.enqueue(chunk as unknown as UIMessageChunk);
  return { relay, source, send, output };
}

async function readAll(stream: ReadableStream<UIMessageChunk>) {
  const chunks: { type: string; data?: { progress: number } }[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<{ type: string; data?: { progress: number } }>) chunks.push(chunk);
  return chunks;
}

describe("progress placement in the UI stream", () => {
  it("a flood of reports against a reader that does not read stays bounded; the latest one is written once there is room", async () => {
    const { relay, source, send, output } = setup();
    send({ type: "tool-input-available", toolCallId: "c1", toolName: "export", input: {} });
    await settleLoop();
    for (let progress = 1; progress <= 10_000; progress++) relay.report("c1", { progress });
    await settleLoop();
    // Room for more: a later chunk writes the report that waited.
    send({ type: "text-delta", id: "t", delta: "." });
    source.close();
    const chunks = await readAll(output);
    const reports = chunks.filter((c) => c.type === "data-tool-progress").map((c) => c.data!.progress);
    expect(reports.length).toBeLessThanOrEqual(PROGRESS_HIGH_WATER_MARK);
    expect(reports.at(-1)).toBe(10_000);
    expect(reports).toEqual([...reports].sort((a, b) => a - b));
  });

  it("no report for a call before its input chunk passed, and none after its output", async () => {
    const { relay, source, send, output } = setup();
    relay.report("c1", { progress: 1 });
    send({ type: "tool-input-available", toolCallId: "c1", toolName: "export", input: {} });
    await settleLoop();
    send({ type: "tool-output-available", toolCallId: "c1", output: { status: "ok", data: 1 } });
    await settleLoop();
    relay.report("c1", { progress: 2 });
    source.close();
    const types = (await readAll(output)).map((c) => (c.type === "data-tool-progress" ? `progress ${c.data!.progress}` : c.type));
    expect(types).toEqual(["tool-input-available", "progress 1", "tool-output-available"]);
  });

  it("reports of a tool this stream does not govern are never written", async () => {
    const { relay, source, send, output } = setup();
    send({ type: "tool-input-available", toolCallId: "c9", toolName: "someone_elses_tool", input: {} });
    await settleLoop();
    relay.report("c9", { progress: 1 });
    source.close();
    expect((await readAll(output)).map((c) => c.type)).toEqual(["tool-input-available"]);
  });
});
