// SI-8 on the AI SDK surface for streaming capabilities (issue 46): a streaming capability hidden from the caller
// answers exactly like an unknown one. Its tool yields no preliminary result, only the envelope a hidden plain
// capability and an unknown id get; no event, progress part or preliminary output reaches the chat; and over the
// remote router's streaming procedure it answers as an unknown id, with no frame.
// Runs in the adversarial project (ai 5) and in the ai-sdk legs (ai 6, 7).
import { eventIterator } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { allow, definePolicy, hide, type ProgressUpdate } from "@orpc-agent/core";
import { governChat, toAISDKTools, type AISDKToolResult } from "@orpc-agent/ai-sdk";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInProcessCapabilityClient, createInvocationService } from "@orpc-agent/core/server";
import { toToolResult } from "../../packages/ai-sdk/src/result.js";
import { chatTurn, userMessage } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";
import { base, build, dana, meta, mo } from "./support/runtime.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";

const where = { direct: true, aiSdk: true } as const;

/**
 * Dana's access to the ledger is revoked after her tool set was built (`revoke()`): the tools are in her set, and every
 * call afterwards meets the hide policy at discovery and invocation, as an unknown id would.
 */
function app() {
  const ran: string[] = [];
  let revoked = false;
  const exportLedger = base
    .input(z.object({ account: z.string() }))
    .output(eventIterator(z.object({ line: z.string() })))
    .meta({ agent: meta({ expose: where, sideEffect: "read", risk: "low" }) })
    .handler(async function* ({ context }) {
      ran.push("exportLedger");
      (context as { agent: { reportProgress(u: ProgressUpdate): void } }).agent.reportProgress({ progress: 1, total: 1 });
      yield { line: "secret ledger line" };
    });
  const readLedger = base
    .input(z.object({ account: z.string() }))
    .meta({ agent: meta({ expose: where, sideEffect: "read", risk: "low" }) })
    .handler(() => (ran.push("readLedger"), { line: "secret ledger line" }));
  const hideFromDana = definePolicy("hide-ledger-from-dana", (req) => (revoked && req.actor.id === "dana" ? hide() : allow()), {
    phases: ["discovery", "invocation"],
    scope: { capabilities: { ids: ["ledger.exportLedger", "ledger.readLedger"] } },
  });
  const { runtime } = build({ defs: { ledger: { exportLedger, readLedger } }, policies: [hideFromDana] });
  return { runtime, ran, revoke: () => void (revoked = true) };
}

async function drain(iterable: AsyncIterable<AISDKToolResult>): Promise<AISDKToolResult[]> {
  const values: AISDKToolResult[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

describe("SI-8: a hidden streaming capability through the AI SDK answers like an unknown one", () => {
  it("SI-8: the streaming tool yields no preliminary result, only the envelope a hidden plain tool and an unknown id get, valid input or not", async () => {
    const { runtime, ran, revoke } = app();
    const tools = await toAISDKTools(runtime, { actor: dana, context: {} });
    revoke();
    const call = { toolCallId: "call_1", messages: [] };
    const stream = tools.ledger_exportLedger!.execute as unknown as (a: unknown, o: unknown) => AsyncIterable<AISDKToolResult>;
    const plainTool = tools.ledger_readLedger!.execute as unknown as (a: unknown, o: unknown) => Promise<AISDKToolResult>;
    for (const input of [{ account: "a-1" }, { account: 7 }, undefined]) {
      const unknown = toToolResult(await runtime.invoke("ledger.nope", input, { actor: dana, context: {}, surface: "aiSdk" }));
      expect(unknown).toMatchObject({ status: "error", error: { code: "CAPABILITY_NOT_FOUND" } });
      const streamed = await drain(stream(input, call));
      expect(JSON.stringify(streamed)).toBe(JSON.stringify([unknown]));
      expect(JSON.stringify(streamed)).toBe(JSON.stringify([await plainTool(input, call)]));
    }
    expect(ran).toEqual([]);
  });

  it("SI-8: in a chat, the hidden stream's chunks are a hidden plain tool's: no preliminary output, no progress part; the visible actor's stream has both", async () => {
    const dataOf = (chunks: unknown[]) =>
      (chunks as { type: string; toolCallId?: string; toolName?: string; [key: string]: unknown }[])
        .filter((c) => c.toolCallId === "call_x" || c.type.startsWith("data-"))
        // The tool's own name, input and metadata differ by construction (they came from discovery); the rest is the answer.
        .map(({ toolName: _n, input: _i, toolMetadata: _m, ...rest }) => rest);
    const ran: string[] = [];
    const chatFor = async (toolName: string) => {
      const fresh = app();
      const chat = await governChat(fresh.runtime, { actor: dana, context: {} });
      fresh.revoke();
      const turn = await chatTurn(chat, [userMessage("Export.")], [[toolCall("call_x", toolName, { account: "a-1" })], [text("Done.")]]);
      ran.push(...fresh.ran);
      return turn;
    };
    const hiddenStream = await chatFor("ledger_exportLedger");
    const hiddenPlain = await chatFor("ledger_readLedger");
    expect(dataOf(hiddenStream.chunks)).toEqual(dataOf(hiddenPlain.chunks));
    const chunks = hiddenStream.chunks as unknown as { type: string; preliminary?: boolean }[];
    expect(chunks.filter((c) => c.type === "data-tool-progress" || c.preliminary === true)).toEqual([]);
    expect(JSON.stringify(hiddenStream.chunks)).not.toContain("secret ledger line");
    expect(ran).toEqual([]);

    const { runtime } = app();
    const visible = await chatTurn(await governChat(runtime, { actor: mo, context: {} }), [userMessage("Export.")], [[toolCall("call_x", "ledger_exportLedger", { account: "a-1" })], [text("Done.")]]);
    const seen = visible.chunks as unknown as { type: string; preliminary?: boolean }[];
    expect(seen.some((c) => c.type === "data-tool-progress")).toBe(true);
    expect(seen.some((c) => c.preliminary === true)).toBe(true);
  });

  it("SI-8: over the remote router, describe omits it and invokeStream answers as for an unknown id, with no frame", async () => {
    const { runtime, ran, revoke } = app();
    revoke();
    const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "si8", revision: "r1" });
    const router = quietly(() =>
      createCapabilityRouter<{ actorId: string }, object>({
        service,
        runtime,
        surface: "aiSdk",
        resolve: async ({ context }) => ({ actor: context.actorId === "mo" ? mo : dana, context: {} }),
        authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
      }),
    );
    const client = createInProcessCapabilityClient(router, { context: { actorId: "dana" } });
    expect((await client.describe()).descriptors.map((d) => d.id)).toEqual([]);

    const frames: unknown[] = [];
    const hooks = { onEvent: (e: unknown) => void frames.push(e), onProgress: (p: unknown) => void frames.push(p) };
    const shape = (r: object) => {
      const { executionId: _e, invocationId: _i, ...rest } = r as Record<string, unknown>;
      return rest;
    };
    for (const input of [{ account: "a-1" }, { account: 7 }]) {
      const hidden = await client.invoke({ capabilityId: "ledger.exportLedger", input, invocationId: `inv-h-${String(input.account)}` }, hooks);
      const unknown = await client.invoke({ capabilityId: "ledger.nope", input, invocationId: `inv-u-${String(input.account)}` }, hooks);
      expect(unknown).toMatchObject({ status: "failed", error: { code: "CAPABILITY_NOT_FOUND" } });
      expect(shape(hidden)).toEqual(shape(unknown));
    }
    expect(frames).toEqual([]);
    expect(ran).toEqual([]);

    // The principal it is visible to gets the stream.
    const moClient = createInProcessCapabilityClient(router, { context: { actorId: "mo" } });
    const received: unknown[] = [];
    const result = await moClient.invoke({ capabilityId: "ledger.exportLedger", input: { account: "a-1" }, invocationId: "inv-mo" }, { onEvent: (e) => void received.push(e) });
    expect(result).toMatchObject({ status: "completed" });
    expect(received).toEqual([{ line: "secret ledger line" }]);
  });
});
