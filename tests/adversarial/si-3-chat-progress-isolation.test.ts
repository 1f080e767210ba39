// SI-3 for progress (issue 46): a call's progress reaches only the caller that asked for it. Two chats of two
// principals, in flight at the same time with the same tool call id, each receive only their own reports; a tool set
// built without a chat sends its reports nowhere; two remote callers each receive only their own.
// Runs in the adversarial project (ai 5) and in the ai-sdk legs (ai 6, 7).
import { eventIterator } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import type { ProgressUpdate } from "@orpc-agent/core";
import { governChat, toAISDKTools } from "@orpc-agent/ai-sdk";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInProcessCapabilityClient, createInvocationService } from "@orpc-agent/core/server";
import { chatTurn, userMessage } from "../../packages/ai-sdk/test/support/chat-turn.js";
import { runTool } from "../../packages/ai-sdk/test/support/run-tool.js";
import { text, toolCall } from "../../packages/ai-sdk/test/support/scripted-model.js";
import { base, build, dana, meta, mo } from "./support/runtime.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";

type Agent = { actor: { id: string }; reportProgress(update: ProgressUpdate): void };

/** A barrier: each handler reports, then waits until `parties` handlers are in flight, then reports again. */
function app(parties: number) {
  let arrived = 0;
  let open!: () => void;
  const allIn = new Promise<void>((resolve) => (open = resolve));
  const meet = async () => {
    if (++arrived === parties) open();
    await allIn;
  };
  const report = base
    .input(z.object({}))
    .meta({ agent: meta({ expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low" }) })
    .handler(async ({ context }) => {
      const agent = (context as { agent: Agent }).agent;
      agent.reportProgress({ progress: 1, total: 2, message: `for ${agent.actor.id}` });
      await meet();
      agent.reportProgress({ progress: 2, total: 2, message: `for ${agent.actor.id}` });
      return { done: agent.actor.id };
    });
  const exportRows = base
    .input(z.object({}))
    .output(eventIterator(z.object({ row: z.string() })))
    .meta({ agent: meta({ expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low" }) })
    .handler(async function* ({ context }) {
      const agent = (context as { agent: Agent }).agent;
      agent.reportProgress({ progress: 1, message: `for ${agent.actor.id}` });
      yield { row: agent.actor.id };
      await meet();
      agent.reportProgress({ progress: 2, message: `for ${agent.actor.id}` });
      yield { row: agent.actor.id };
    });
  return build({ defs: { jobs: { report, exportRows } } });
}

function progressMessages(chunks: unknown[]): string[] {
  return (chunks as { type: string; data?: { message?: string } }[]).filter((c) => c.type === "data-tool-progress").map((c) => c.data!.message!);
}

describe("SI-3: progress reaches only the caller that asked for it", () => {
  for (const tool of ["jobs_report", "jobs_exportRows"]) {
    it(`SI-3: two principals' chats in flight at once, same tool call id (${tool}): each stream carries only its own reports`, async () => {
      const { runtime } = app(2);
      const [danaChat, moChat] = await Promise.all([governChat(runtime, { actor: dana, context: {} }), governChat(runtime, { actor: mo, context: {} })]);
      const script = () => [[toolCall("call_1", tool, {})], [text("Done.")]];
      const [danaTurn, moTurn] = await Promise.all([chatTurn(danaChat, [userMessage("Run.")], script()), chatTurn(moChat, [userMessage("Run.")], script())]);
      expect(progressMessages(danaTurn.chunks).length).toBeGreaterThan(0);
      expect(progressMessages(moTurn.chunks).length).toBeGreaterThan(0);
      expect(new Set(progressMessages(danaTurn.chunks))).toEqual(new Set(["for dana"]));
      expect(new Set(progressMessages(moTurn.chunks))).toEqual(new Set(["for mo"]));
      expect(JSON.stringify(danaTurn.chunks)).not.toContain('"mo"');
      expect(JSON.stringify(moTurn.chunks)).not.toContain('"dana"');
    });
  }

  it("SI-3: a tool set built without a chat asks for no progress: its reports reach no chat, even one in flight on the same runtime", async () => {
    const { runtime } = app(2);
    const chat = await governChat(runtime, { actor: dana, context: {} });
    const bare = await toAISDKTools(runtime, { actor: mo, context: {} });
    const [turn] = await Promise.all([
      chatTurn(chat, [userMessage("Run.")], [[toolCall("call_1", "jobs_report", {})], [text("Done.")]]),
      // As the SDK loop calls it, with the same call id.
      runTool(bare, "jobs_report", {}, { toolCallId: "call_1" }),
    ]);
    expect(new Set(progressMessages(turn.chunks))).toEqual(new Set(["for dana"]));
  });

  it("SI-3: two remote callers in flight at once each receive only their own progress and events", async () => {
    const { runtime } = app(2);
    const router = quietly(() =>
      createCapabilityRouter<{ actorId: string }, object>({
        service: createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "si3", revision: "r1" }),
        runtime,
        surface: "aiSdk",
        resolve: async ({ context }) => ({ actor: context.actorId === "mo" ? mo : dana, context: {} }),
        authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
      }),
    );
    const seen: Record<string, unknown[]> = { dana: [], mo: [] };
    const call = (actorId: "dana" | "mo") =>
      createInProcessCapabilityClient(router, { context: { actorId } }).invoke(
        // The same invocation id for both: ids are scoped to their principal.
        { capabilityId: "jobs.exportRows", input: {}, invocationId: "inv-shared" },
        { onEvent: (e) => void seen[actorId]!.push(e), onProgress: (p) => void seen[actorId]!.push(p.message) },
      );
    const [forDana, forMo] = await Promise.all([call("dana"), call("mo")]);
    expect(forDana).toMatchObject({ status: "completed", output: { row: "dana" } });
    expect(forMo).toMatchObject({ status: "completed", output: { row: "mo" } });
    expect(JSON.stringify(seen.dana)).not.toContain("mo");
    expect(JSON.stringify(seen.mo)).not.toContain("dana");
    expect(seen.dana).toContainEqual({ row: "dana" });
    expect(seen.mo).toContainEqual({ row: "mo" });
  });
});
