// SI-8 (issue 22, item 8): an invocation id another actor used must look unused, never INVOCATION_CONFLICT.
import { createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta, mo } from "./support/runtime.js";

function app() {
  const keys: { actor: string; key: string | undefined }[] = [];
  const note = base
    .meta({ agent: meta({ expose: { aiSdk: true }, sideEffect: "write", idempotent: true }) })
    .input(z.object({ text: z.string() }))
    .handler(({ input, context }) => {
      const agent = (context as { agent: { actor: { id: string }; idempotencyKey?: string } }).agent;
      keys.push({ actor: agent.actor.id, key: agent.idempotencyKey });
      return `noted ${input.text} for ${agent.actor.id}`;
    });
  const { runtime } = build({ defs: { note } });
  const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "adv", revision: "r1" });
  return { runtime, service, keys };
}

// What a caller can compare: everything but the ids it chose and the random execution id.
const shape = (r: Record<string, unknown>) => ({ ...r, invocationId: "-", executionId: typeof r.executionId === "string" && r.executionId.length > 0 ? "exe" : r.executionId });

describe("SI-8: invocation ids do not leak across actors", () => {
  it("SI-8: reusing another actor's invocation id answers as an unused id would, with its own effect key", async () => {
    const { runtime, service, keys } = app();
    const input = { text: "hi" };
    const first = await service.invoke(runtime, "note", input, { actor: dana, context: {}, surface: "aiSdk", invocationId: "inv-shared" });
    expect(first).toMatchObject({ status: "completed", output: "noted hi for dana" });

    const reused = await service.invoke(runtime, "note", input, { actor: mo, context: {}, surface: "aiSdk", invocationId: "inv-shared" });
    const unused = await service.invoke(runtime, "note", input, { actor: mo, context: {}, surface: "aiSdk", invocationId: "inv-fresh" });
    expect(shape(reused)).toEqual(shape(unused));
    expect(reused).toMatchObject({ status: "completed", output: "noted hi for mo", replayed: false });
    // Dana's effect key is hers alone: mo's run never shares it, so downstream deduplication cannot mix them.
    expect(keys[1]!.key).not.toBe(keys[0]!.key);

    // Dana's own row is untouched and still replays.
    expect(await service.invoke(runtime, "note", input, { actor: dana, context: {}, surface: "aiSdk", invocationId: "inv-shared" })).toMatchObject({
      status: "completed",
      output: "noted hi for dana",
      replayed: true,
    });
  });

  it("SI-8: the same actor reusing its own id for another request still gets INVOCATION_CONFLICT", async () => {
    const { runtime, service } = app();
    await service.invoke(runtime, "note", { text: "a" }, { actor: dana, context: {}, surface: "aiSdk", invocationId: "inv-own" });
    const again = await service.invoke(runtime, "note", { text: "b" }, { actor: dana, context: {}, surface: "aiSdk", invocationId: "inv-own" });
    expect(again).toMatchObject({ status: "failed", error: { code: "INVOCATION_CONFLICT" } });
  });
});
