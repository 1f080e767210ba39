// The progress behaviour every serving path shares (HTTP and stdio, both eras), run against one connected client.
import { expect, it } from "vitest";
import { EVENT_MESSAGE_MAX_LENGTH } from "../../src/catalog/progress.js";
import type { ProgressClient, ProgressSeen } from "./eras.js";

export function progressCases(connect: () => Promise<ProgressClient>): void {
  it("a call with a progress token receives the capability's reports, increasing, the last one before the result", async () => {
    const client = await connect();
    const seen: ProgressSeen[] = [];
    const result = await client.call("jobs_steps", { steps: 5 }, seen);
    expect(result.structuredContent).toEqual({ status: "ok", data: { steps: 5 } });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    const values = seen.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(seen.at(-1)).toEqual({ progress: 5, total: 5, message: "step 5" });
    for (const update of seen) expect(update).toEqual({ progress: update.progress, total: 5, message: `step ${update.progress}` });
  });

  it("a call without a progress token gets the same result", async () => {
    const client = await connect();
    expect((await client.call("jobs_steps", { steps: 3 })).structuredContent).toEqual({ status: "ok", data: { steps: 3 } });
  });

  it("a streaming capability answers its last event as the result, each event as a progress notification", async () => {
    const client = await connect();
    await client.listTools(); // the v2 Client then checks the result against the listed output schema
    const seen: ProgressSeen[] = [];
    const result = await client.call("exports_rows", { count: 3 }, seen);
    expect(result.structuredContent).toEqual({ status: "ok", data: { row: 3 } });
    expect(result.isError).toBe(false);
    expect(seen).toEqual([
      { progress: 1, message: '{"row":1}' },
      { progress: 2, message: '{"row":2}' },
      { progress: 3, message: '{"row":3}' },
    ]);
  });

  it("a streaming capability called without a token still answers its last event", async () => {
    const client = await connect();
    expect((await client.call("exports_rows", { count: 2 })).structuredContent).toEqual({ status: "ok", data: { row: 2 } });
  });

  it("a stream without events answers ok without data, and sends no progress", async () => {
    const client = await connect();
    await client.listTools();
    const seen: ProgressSeen[] = [];
    const result = await client.call("exports_rows", { count: 0 }, seen);
    expect(result.structuredContent).toEqual({ status: "ok" });
    expect(seen).toEqual([]);
  });

  it("a stream that fails after its first event answers the error, after that event's notification", async () => {
    const client = await connect();
    const seen: ProgressSeen[] = [];
    const result = await client.call("exports_broken", {}, seen);
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { status: string }).status).toBe("error");
    expect(seen).toEqual([{ progress: 1, message: '{"row":1}' }]);
  });

  it("an event's message is capped, never splitting a character", async () => {
    const client = await connect();
    const seen: ProgressSeen[] = [];
    await client.call("exports_wide", {}, seen);
    expect(seen).toHaveLength(1);
    const message = seen[0]!.message!;
    expect(message.length).toBeLessThanOrEqual(EVENT_MESSAGE_MAX_LENGTH);
    expect(message.endsWith("…")).toBe(true);
    expect(message.startsWith('{"row":1,"text":"éé')).toBe(true);
  });
}
