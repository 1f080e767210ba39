// SI-8 for streaming capabilities (issue 46): a streaming capability hidden from an actor answers exactly like an
// unknown id, at describe (no descriptor, so no `streaming` flag) and at invoke (same envelope, nothing streamed,
// no progress), with or without the stream callbacks.
import { eventIterator } from "@orpc/server";
import { allow, definePolicy, hide, type ExecutionResult } from "@orpc-agent/core";
import { toModelError } from "../../packages/core/src/errors/capability-error.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta, mo } from "./support/runtime.js";
import { captureStartupWarnings } from "./support/startup-warnings.js";

captureStartupWarnings(["W2"]);

const hideFromDana = definePolicy("hide-from-dana", (req) => (req.actor.id === "dana" ? hide() : allow()), { phases: ["discovery", "invocation"] });

function app() {
  let ran = 0;
  const exportLedger = base
    .input(z.object({ account: z.string() }))
    .output(eventIterator(z.object({ line: z.string() })))
    .meta({ agent: meta({ expose: { direct: true, aiSdk: true, mcp: true } }) })
    .handler(async function* ({ context }) {
      ran++;
      (context as { agent: { reportProgress(u: { progress: number }): void } }).agent.reportProgress({ progress: 1 });
      yield { line: "secret ledger line" };
    });
  const { runtime, events } = build({ defs: { admin: { exportLedger } }, policies: [hideFromDana] });
  return { runtime, events, ran: () => ran };
}

function answer(result: ExecutionResult) {
  if (result.status !== "failed") return { status: result.status };
  const { code, stage, publicMessage, retryable, exposeToModel, details } = result.error;
  return { status: result.status, code, stage, publicMessage, retryable, exposeToModel, details, model: toModelError(result.error), keys: Object.keys(result) };
}

describe("SI-8: a hidden streaming capability equals an unknown one", () => {
  it("SI-8: describe lists it (streaming) for an actor who may see it, and not at all for one it is hidden from", async () => {
    const { runtime } = app();
    const forMo = await runtime.describe("direct", { actor: mo, context: {} });
    expect(forMo.map((d) => [d.id, d.streaming])).toEqual([["admin.exportLedger", true]]);
    expect(await runtime.describe("direct", { actor: dana, context: {} })).toEqual([]);
  });

  it("SI-8: invoke answers as for an unknown id, valid or invalid input, with stream callbacks; nothing streams and no progress crosses", async () => {
    const { runtime, ran } = app();
    const seen: unknown[] = [];
    const callbacks = { onEvent: (e: unknown) => void seen.push(["event", e]), onProgress: (p: unknown) => void seen.push(["progress", p]) };
    for (const input of [{ account: "a-1" }, { account: 7 }, undefined]) {
      const unknown = answer(await runtime.invoke("admin.nope", input, { actor: dana, context: {}, ...callbacks }));
      expect(unknown.code).toBe("CAPABILITY_NOT_FOUND");
      expect(answer(await runtime.invoke("admin.exportLedger", input, { actor: dana, context: {}, ...callbacks }))).toEqual(unknown);
      expect(answer(await runtime.invoke("admin.exportLedger", input, { actor: dana, context: {} }))).toEqual(unknown);
    }
    expect(ran()).toBe(0);
    expect(seen).toEqual([]);
    // The actor it is visible to streams as usual.
    const visible = await runtime.invoke("admin.exportLedger", { account: "a-1" }, { actor: mo, context: {}, ...callbacks });
    expect(visible).toMatchObject({ status: "completed", eventCount: 1 });
    expect(seen).toEqual([
      ["progress", { progress: 1 }],
      ["event", { line: "secret ledger line" }],
    ]);
  });
});
