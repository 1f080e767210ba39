// The progress behaviour every serving path shares (HTTP and stdio, both eras), run against one connected client.
import { expect, it } from "vitest";
import { EVENT_MESSAGE_MAX_LENGTH } from "../../src/catalog/progress.js";
import { openGateOn, type ProgressClient, type ProgressSeen } from "./eras.js";

function expectIncreasingSteps(seen: ProgressSeen[], steps: number): void {
  expect(seen.length).toBeGreaterThanOrEqual(1);
  const values = seen.map((update) => update.progress);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  expect(new Set(values).size).toBe(values.length);
  expect(seen.at(-1)).toEqual({ progress: steps, total: steps, message: `step ${steps}` });
  for (const update of seen) expect(update).toEqual({ progress: update.progress, total: steps, message: `step ${update.progress}` });
}

export function progressCases(connect: () => Promise<ProgressClient>): void {
  it("a call with a progress token receives the capability's reports while it runs, increasing", async () => {
    const client = await connect();
    const seen = openGateOn(client, (update) => update.progress === 5);
    const result = await client.call("jobs_gated", { steps: 5 }, seen);
    expect(result.structuredContent).toEqual({ status: "ok", data: { steps: 5 } });
    expectIncreasingSteps(seen, 5);
  });

  it("a call without a progress token gets the same result", async () => {
    const client = await connect();
    expect((await client.call("jobs_steps", { steps: 3 })).structuredContent).toEqual({ status: "ok", data: { steps: 3 } });
  });

  it("a streaming capability answers its last event as the result, each event as a progress notification", async () => {
    const client = await connect();
    await client.listTools(); // the v2 Client then checks the result against the listed output schema
    const seen = openGateOn(client, (update) => update.progress === 3);
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
    expect((await client.call("exports_rows", { count: 2, wait: false })).structuredContent).toEqual({ status: "ok", data: { row: 2 } });
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
    const seen = openGateOn(client, (update) => update.progress === 1);
    const result = await client.call("exports_broken", {}, seen);
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { status: string }).status).toBe("error");
    expect(seen).toEqual([{ progress: 1, message: '{"row":1}' }]);
  });

  it("an event's message is capped, never splitting a character", async () => {
    const client = await connect();
    const seen = openGateOn(client, () => true);
    await client.call("exports_wide", {}, seen);
    expect(seen).toHaveLength(1);
    const message = seen[0]!.message!;
    expect(message.length).toBeLessThanOrEqual(EVENT_MESSAGE_MAX_LENGTH);
    expect(message.endsWith("…")).toBe(true);
    expect(message.startsWith('{"row":1,"text":"éé')).toBe(true);
  });
}

/**
 * What a client that handles messages in arrival order also sees (the SSE transports): the last report and the last
 * event are on the wire before the result, even when the capability ends at once.
 */
export function inOrderCases(connect: () => Promise<ProgressClient>): void {
  it("a capability that ends at once: its last report arrives before the result", async () => {
    const client = await connect();
    const seen: ProgressSeen[] = [];
    const result = await client.call("jobs_steps", { steps: 5 }, seen);
    expect(result.structuredContent).toEqual({ status: "ok", data: { steps: 5 } });
    expectIncreasingSteps(seen, 5);
  });

  it("a stream that ends at once: every event's notification arrives before the result", async () => {
    const client = await connect();
    const seen: ProgressSeen[] = [];
    const result = await client.call("exports_rows", { count: 3, wait: false }, seen);
    expect(result.structuredContent).toEqual({ status: "ok", data: { row: 3 } });
    expect(seen.map((update) => update.progress)).toEqual([1, 2, 3]);
  });
}
