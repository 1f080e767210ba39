// Issue 46: over a remote CapabilityClient, a streaming capability's tool streams too: the server's events (oRPC's
// event-iterator transport) as preliminary results, the final answer last; a replayed invocation has no events.
import { stepCountIs, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { toAISDKTools, type RemoteAISDKToolResult } from "../src/index.js";
import { context, dana } from "./support/app.js";
import { createTestRouter, inProcessClient } from "./support/remote-server.js";
import { scriptedModel, text, toolCall, toolResultsSent } from "./support/scripted-model.js";
import { buildStreamingApp, PAGES } from "./support/streaming-app.js";

const REDACTED = PAGES.map(({ internalNote: _, ...rest }) => rest);

function remote() {
  const app = buildStreamingApp();
  const { router } = createTestRouter({ runtime: app.runtime, appContext: context, actors: [dana] });
  return { ...app, client: inProcessClient(router, dana) };
}

describe("remote streaming tools", () => {
  it("streamText over the client: the events as preliminary results, the final envelope last; the model reads the final only", async () => {
    const { client, traces } = remote();
    const ids: string[] = [];
    const tools = await toAISDKTools(client, { invocationId: async () => (ids.push(`inv-export-${ids.length}`), ids.at(-1)!) });
    const { model, calls } = scriptedModel([[toolCall("call_export", "orders_export", { customerId: "c_ada" })], [text("Exported.")]]);
    const result = streamText({ model, tools, prompt: "Export Ada's orders.", stopWhen: stepCountIs(3) });
    const outputs: { output: unknown; preliminary: boolean }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") outputs.push({ output: part.output, preliminary: (part as { preliminary?: boolean }).preliminary === true });
    }
    const preliminary = outputs.filter((o) => o.preliminary).map((o) => o.output);
    // Each event, then the final envelope once more (decoded separately from the events, so it is yielded again).
    expect(preliminary).toEqual([...REDACTED, REDACTED[2]].map((data) => ({ status: "ok", data })));
    expect(outputs.filter((o) => !o.preliminary).map((o) => o.output)).toEqual([{ status: "ok", data: REDACTED[2] }]);
    expect(toolResultsSent(calls[1]!).map((r) => r.output)).toEqual([{ type: "json", value: { status: "ok", data: REDACTED[2] } }]);
    expect(traces).toHaveLength(1);
  });

  it("a replayed invocation id answers the final envelope with no preliminary results; nothing runs again", async () => {
    const { client, traces } = remote();
    const tools = await toAISDKTools(client, { invocationId: async () => "inv-export-fixed" });
    const execute = tools.orders_export!.execute as unknown as (a: unknown, o: Record<string, unknown>) => AsyncIterable<RemoteAISDKToolResult>;
    const first: RemoteAISDKToolResult[] = [];
    for await (const value of execute({ customerId: "c_ada" }, { toolCallId: "call_1", messages: [] })) first.push(value);
    expect(first).toHaveLength(4);
    const replay: RemoteAISDKToolResult[] = [];
    for await (const value of execute({ customerId: "c_ada" }, { toolCallId: "call_2", messages: [] })) replay.push(value);
    expect(replay).toEqual([{ status: "ok", data: REDACTED[2] }]);
    expect(traces).toHaveLength(1);
  });

  it("the loop's abortSignal stops reading: the read is cancelled on the server and the tool answers the cancellation or outcome-unknown", async () => {
    const { client, traces } = remote();
    const tools = await toAISDKTools(client, { invocationId: async () => "inv-export-abort" });
    const abort = new AbortController();
    const execute = tools.orders_export!.execute as unknown as (a: unknown, o: Record<string, unknown>) => AsyncIterator<RemoteAISDKToolResult>;
    const iterator = execute({ customerId: "c_ada" }, { toolCallId: "call_1", messages: [], abortSignal: abort.signal });
    expect((await iterator.next()).value).toEqual({ status: "ok", data: REDACTED[0] });
    abort.abort();
    const rest: RemoteAISDKToolResult[] = [];
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) rest.push(step.value);
    // In process the server's cancellation can arrive before the connection drops; over a network it is unknown.
    const last = rest.at(-1)!;
    if (last.status === "error") expect(last.error.code).toBe("CANCELLED");
    else expect(last).toEqual({ status: "outcome-unknown", invocationId: "inv-export-abort", message: expect.any(String) });
    await expect.poll(() => traces[0]!.closed).toBe(true);
    expect(traces[0]!.produced).toBeLessThan(PAGES.length);
  });
});
