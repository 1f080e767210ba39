// docs/architecture/spec/adapters.md#adapters-2-7 (8) and docs/architecture/spec/adapters.md#adapters-2-5: the real generateText loop of the loaded `ai` major, driven by a scripted model.
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { toAISDKTools, type AISDKToolResult } from "../src/index.js";
import { buildApp, context, dana, priya } from "./support/app.js";
import { scriptedModel, text, toolCall, toolResultsSent } from "./support/scripted-model.js";

type Part = { type: string; toolCallId?: string; toolName?: string; output?: unknown; error?: unknown };

/** The content parts of every step, in order; the part types are the same on every major. */
function partsOf(result: { steps: readonly { content: readonly unknown[] }[] }): Part[][] {
  return result.steps.map((step) => step.content as Part[]);
}

function toolOutputs(result: { steps: readonly { content: readonly unknown[] }[] }): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const part of partsOf(result).flat()) if (part.type === "tool-result") outputs[part.toolCallId!] = part.output;
  return outputs;
}

describe("generateText with governed tools", () => {
  it("a read, then a gated write: outputs are envelopes, approval-required is a tool result the model reads; the app approves and resumes", async () => {
    const app = buildApp();
    const tools = await toAISDKTools(app.runtime, { actor: dana, context });
    let approvalId = "";
    const { model, calls } = scriptedModel([
      [toolCall("call_read", "orders_get", { orderId: "o1" })],
      [toolCall("call_refund", "orders_refund", { orderId: "o1", amount: 649 })],
      (call) => {
        const pending = toolResultsSent(call).find((result) => result.toolCallId === "call_refund")!;
        approvalId = ((pending.output as { value: AISDKToolResult & { approvalId: string } }).value).approvalId;
        return [text(`Your refund is waiting for a manager (${approvalId}).`)];
      },
    ]);

    const first = await generateText({ model, tools, prompt: "Refund order o1, it arrived broken.", stopWhen: stepCountIs(5) });

    expect(first.steps).toHaveLength(3);
    const outputs = toolOutputs(first);
    expect(outputs.call_read).toEqual({ status: "ok", data: { orderId: "o1", total: 649, status: "delivered" } });
    expect(outputs.call_refund).toEqual({ status: "approval-required", approvalId, message: "Awaiting approval: Approval is required for orders.refund." });
    expect(approvalId).toMatch(/^apr_/);
    // Not a tool error: no step holds one, and the model was sent plain JSON results.
    expect(partsOf(first).flat().filter((part) => part.type === "tool-error")).toEqual([]);
    expect(toolResultsSent(calls[1]!)).toEqual([{ toolCallId: "call_read", toolName: "orders_get", output: { type: "json", value: outputs.call_read } }]);
    expect(toolResultsSent(calls[2]!).at(-1)).toEqual({ toolCallId: "call_refund", toolName: "orders_refund", output: { type: "json", value: outputs.call_refund } });
    expect(first.text).toContain(approvalId);
    expect(app.handlerRuns).toEqual(["orders.get"]);

    // The human decides in the app, never through a tool; the app resumes (docs/architecture/spec/adapters.md#adapters-2-5).
    await expect(app.runtime.approvals.decide(approvalId, { status: "approved", approver: dana })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: priya });
    const outcome = await app.runtime.resume(approvalId, { context, expectedActor: dana, expectedSurface: "aiSdk" });
    expect(outcome).toMatchObject({ status: "completed", output: { refunded: 649, orderId: "o1", approvedBy: "u_priya" } });
    expect(app.handlerRuns).toEqual(["orders.get", "orders.refund"]);

    // The app posts the outcome; a model that calls the tool again starts a new execution and a new approval.
    const next = scriptedModel([[toolCall("call_again", "orders_refund", { orderId: "o1", amount: 649 })], [text("A second refund needs its own approval.")]]);
    const second = await generateText({
      model: next.model,
      tools: await toAISDKTools(app.runtime, { actor: dana, context }),
      messages: [...first.response.messages, { role: "user", content: `Refund approved: ${JSON.stringify(outcome.status === "completed" && outcome.output)}. Refund again?` }],
      stopWhen: stepCountIs(5),
    });
    const again = toolOutputs(second).call_again as { status: string; approvalId: string };
    expect(again.status).toBe("approval-required");
    expect(again.approvalId).not.toBe(approvalId);
    expect(app.handlerRuns).toEqual(["orders.get", "orders.refund"]);

    const refundEvents = app.events.filter((event) => event.capabilityId === "orders.refund").map((event) => event.type);
    expect(refundEvents).toEqual([
      "capability.requested",
      "capability.approval_requested",
      "capability.approved",
      "capability.started",
      "capability.completed",
      "capability.requested",
      "capability.approval_requested",
    ]);
    expect(app.events.every((event) => event.surface === "aiSdk")).toBe(true);
  });

  it("aborting the loop mid-tool cancels the capability: the handler sees the abort, the tool result is CANCELLED, audit says capability.cancelled", async () => {
    const app = buildApp();
    const tools = await toAISDKTools(app.runtime, { actor: dana, context });
    const { model } = scriptedModel([[toolCall("call_slow", "support_slow", {})], [text("unreachable")]]);
    const controller = new AbortController();
    const run = app.nextSlowRun();
    const stepOutputs: unknown[] = [];
    const loop = generateText({
      model,
      tools,
      prompt: "Search the archive.",
      abortSignal: controller.signal,
      stopWhen: stepCountIs(5),
      onStepFinish: (step) => {
        for (const part of step.content as Part[]) if (part.type === "tool-result") stepOutputs.push(part.output);
      },
    });
    await run.started;
    controller.abort();
    const settled = await loop.then(
      () => "resolved",
      (error: unknown) => (error as Error).name,
    );
    // Every major ends the loop on its own abort once the step finished.
    expect(settled).toBe("AbortError");
    expect((await run.settled).aborted).toBe(true);
    expect(stepOutputs).toEqual([{ status: "error", error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false } }]);
    const cancelled = app.events.filter((event) => event.type === "capability.cancelled");
    expect(cancelled.map((event) => [event.capabilityId, (event.data as { code: string }).code])).toEqual([["support.slow", "CANCELLED"]]);
  });

  it("hostile model output: smuggled identity and mistyped arguments reach the runtime unchanged and are governed there", async () => {
    const app = buildApp();
    const tools = await toAISDKTools(app.runtime, { actor: dana, context });
    const { model } = scriptedModel([
      [
        toolCall("call_whoami", "support_whoami", { actor: { id: "u_admin", kind: "user", attributes: { role: "admin" } }, as: "u_admin" }),
        toolCall("call_mistyped", "notes_add", { text: 12345 }),
      ],
      [text("done")],
    ]);
    const result = await generateText({ model, tools, prompt: "Do as I say.", stopWhen: stepCountIs(3) });
    const outputs = toolOutputs(result);
    expect(outputs.call_whoami).toEqual({ status: "ok", data: { actor: dana, tenant: "acme" } });
    expect(outputs.call_mistyped).toMatchObject({ status: "error", error: { code: "INPUT_INVALID", details: { issues: [{ path: ["text"] }] } } });
    expect(JSON.stringify(outputs.call_mistyped)).not.toContain("12345");
    for (const event of app.events) if (event.actor) expect(event.actor.id).toBe("u_dana");
  });

  it("hostile model output: names outside the set, unparseable arguments and prototype keys never reach the runtime", async () => {
    const app = buildApp();
    const tools = await toAISDKTools(app.runtime, { actor: dana, context });
    const { model } = scriptedModel([
      [
        toolCall("call_hidden", "admin_purge", {}),
        toolCall("call_unexposed", "internal_reindex", {}),
        toolCall("call_raw_id", "orders.get", { orderId: "o1" }),
        toolCall("call_contextual", "support_currentTicket", {}),
        toolCall("call_garbage", "notes_add", "{not json"),
        // Every major's secure JSON parser refuses prototype keys before any tool runs.
        toolCall("call_proto", "notes_add", '{"__proto__":{"polluted":true},"text":"hello"}'),
      ],
      [text("done")],
    ]);
    const result = await generateText({ model, tools, prompt: "Purge everything.", stopWhen: stepCountIs(3) });
    const errors = partsOf(result)
      .flat()
      .filter((part) => part.type === "tool-error")
      .map((part) => part.toolCallId);
    expect(errors.sort()).toEqual(["call_contextual", "call_garbage", "call_hidden", "call_proto", "call_raw_id", "call_unexposed"]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(toolOutputs(result))).toEqual([]);
    expect(app.handlerRuns).toEqual([]);
    expect(app.events.filter((event) => event.type !== "capabilities.discovered")).toEqual([]);
  });

  it("bad arguments come back as INPUT_INVALID with issue paths and the model retries to ok; a throwing handler is the generic INTERNAL_ERROR and its text never reaches the model", async () => {
    const app = buildApp();
    // The app's handlers record their run first, so a failing record makes support.whoami throw from inside its
    // handler, carrying internal text that must stay on the server (docs/architecture/spec/core.md#core-7, SI-5).
    const internal = "connect ECONNREFUSED 10.0.3.7:5432 (users_table, token sk_live_41x9)";
    const record = app.handlerRuns.push.bind(app.handlerRuns);
    app.handlerRuns.push = (...names: string[]) => {
      if (names.includes("support.whoami")) throw new Error(internal);
      return record(...names);
    };
    const tools = await toAISDKTools(app.runtime, { actor: dana, context });
    const { model, calls } = scriptedModel([
      [toolCall("call_bad", "notes_add", { text: 42 })],
      (call) => {
        // The model reads the issue path and fixes its arguments.
        const invalid = toolResultsSent(call).find((result) => result.toolCallId === "call_bad")!;
        const issues = (invalid.output as { value: { error: { details: { issues: { path: string[] }[] } } } }).value.error.details.issues;
        return [toolCall("call_fixed", "notes_add", { [issues[0]!.path[0]!]: "Customer called back." })];
      },
      [toolCall("call_throws", "support_whoami", {})],
      [text("Something went wrong on our side.")],
    ]);

    const result = await generateText({ model, tools, prompt: "Note the callback, then check who I am.", stopWhen: stepCountIs(6) });

    expect(result.steps).toHaveLength(4);
    const outputs = toolOutputs(result);
    expect(outputs.call_bad).toEqual({
      status: "error",
      error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: { issues: [{ path: ["text"], message: expect.any(String) }] } },
    });
    expect(JSON.stringify(outputs.call_bad)).not.toContain("42");
    expect(outputs.call_fixed).toEqual({ status: "ok", data: { added: "Customer called back." } });
    expect(outputs.call_throws).toEqual({ status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } });
    // All three are tool results the model reads, not tool errors.
    expect(partsOf(result).flat().filter((part) => part.type === "tool-error")).toEqual([]);
    expect(toolResultsSent(calls[1]!)).toEqual([{ toolCallId: "call_bad", toolName: "notes_add", output: { type: "json", value: outputs.call_bad } }]);
    expect(toolResultsSent(calls[3]!).at(-1)).toEqual({ toolCallId: "call_throws", toolName: "support_whoami", output: { type: "json", value: outputs.call_throws } });
    // Only the corrected call ran notes.add; the throwing handler did start.
    expect([...app.handlerRuns]).toEqual(["notes.add"]);
    expect(app.events.filter((event) => event.capabilityId === "support.whoami").map((event) => event.type)).toEqual([
      "capability.requested",
      "capability.started",
      "capability.failed",
    ]);

    // Nothing the model was sent, on any step, nor the loop's own record, carries the internal text.
    expect(calls).toHaveLength(4);
    for (const fragment of ["ECONNREFUSED", "users_table", "sk_live_41x9"]) {
      expect(JSON.stringify(calls.map((call) => call.prompt))).not.toContain(fragment);
      expect(JSON.stringify(result.response.messages)).not.toContain(fragment);
    }
  });
});
