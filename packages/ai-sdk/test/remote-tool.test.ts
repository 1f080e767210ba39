// docs/architecture/spec/adapters.md#adapters-2-6, docs/architecture/spec/adapters.md#adapters-2-7 (12): a remote tool's execute — the invocation id allocator, what is sent, the result
// mapping, signals (docs/architecture/spec/adapters.md#adapters-1-6), and the real generateText loop of the loaded `ai` major.
import { getEventListeners } from "node:events";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it, vi } from "vitest";
import type { RemoteAISDKToolResult, RemoteAISDKToolsOptions } from "../src/index.js";
import { toAISDKTools } from "../src/index.js";
import { buildApp, context, dana, priya } from "./support/app.js";
import { createTestRouter, inProcessClient, newInvocationId, startCapabilityServer } from "./support/remote-server.js";
import { runTool } from "./support/run-tool.js";
import { scriptedModel, text, toolCall } from "./support/scripted-model.js";
import { describeResponse, remoteDescriptor, remoteResults, spyClient, type InvokeBehaviour } from "./support/spy-client.js";

type AllocatorCall = Parameters<RemoteAISDKToolsOptions["invocationId"]>[0];

const CONCEALED = '{"status":"error","error":{"code":"INTERNAL_ERROR","message":"The operation failed.","retryable":false}}';
const UNKNOWN_MESSAGE = "The outcome of this operation could not be confirmed. Do not repeat it until it has been reconciled.";

/** An allocator that commits each id to a map before resolving, as docs/architecture/spec/adapters.md#adapters-2-6 requires, and records every call. */
function recordingAllocator() {
  const calls: AllocatorCall[] = [];
  const committed = new Map<string, string>();
  const invocationId = async (call: AllocatorCall) => {
    calls.push(call);
    const id = newInvocationId();
    committed.set(call.toolCallId, id);
    return id;
  };
  return { invocationId, calls, committed };
}

/** The support app behind a capability router, reached in process. */
function remoteApp() {
  const app = buildApp();
  const { router, service } = createTestRouter({ runtime: app.runtime, appContext: context, actors: [dana, priya] });
  return { ...app, service, clientFor: (actor: typeof dana) => inProcessClient(router, actor) };
}

/** A client serving one descriptor, `orders.get`, whose invoke does what the test says. */
function stubbed(invoke: InvokeBehaviour) {
  return spyClient(undefined, { describe: async () => describeResponse([remoteDescriptor("orders.get")]), invoke });
}

describe("remote execute: the invocation id", () => {
  it("allocates once per execution, with the capability id, the raw arguments and the SDK toolCallId, before sending", async () => {
    const app = remoteApp();
    const allocator = recordingAllocator();
    const spy = spyClient(app.clientFor(dana), {
      invoke: (request, options) => {
        // The id was committed before anything was sent.
        expect([...allocator.committed.values()]).toContain(request.invocationId);
        return app.clientFor(dana).invoke(request, options);
      },
    });
    const tools = await toAISDKTools(spy.client, { invocationId: allocator.invocationId, correlationId: "conv-7" });
    const args = { orderId: "o1" };
    const result = await runTool(tools, "orders_get", args, { toolCallId: "call_abc" });
    expect(result).toEqual({ status: "ok", data: { orderId: "o1", total: 649, status: "delivered" } });
    expect(allocator.calls).toEqual([{ capabilityId: "orders.get", input: args, toolCallId: "call_abc" }]);
    expect(allocator.calls[0]!.input).toBe(args);
    expect(spy.invokes).toHaveLength(1);
    expect(spy.invokes[0]!.request).toStrictEqual({ capabilityId: "orders.get", input: args, invocationId: allocator.committed.get("call_abc"), correlationId: "conv-7" });
    expect(spy.invokes[0]!.request.input).toBe(args);
    expect(spy.invokes[0]!.options).toBeUndefined();

    await runTool(tools, "orders_get", args, { toolCallId: "call_def" });
    expect(allocator.calls.map((call) => call.toolCallId)).toEqual(["call_abc", "call_def"]);
    expect(new Set(spy.invokes.map((call) => call.request.invocationId)).size).toBe(2);
  });

  it("sends nothing when the allocator rejects, throws, or yields an empty, non-string or malformed id: the concealed error", async () => {
    const allocators: RemoteAISDKToolsOptions["invocationId"][] = [
      () => Promise.reject(new Error("journal down: secret-dsn")),
      () => {
        throw new Error("sync throw: secret-dsn");
      },
      async () => "",
      async () => 42 as never,
      async () => undefined as never,
      async () => "-starts-with-dash",
      async () => "has space",
      async () => "x".repeat(129),
    ];
    const app = remoteApp();
    for (const invocationId of allocators) {
      const spy = spyClient(app.clientFor(dana));
      const tools = await toAISDKTools(spy.client, { invocationId });
      const result = await runTool(tools, "notes_add", { text: "hi" });
      expect(JSON.stringify(result), String(invocationId)).toBe(CONCEALED);
      expect(spy.invokes).toEqual([]);
    }
    expect(app.handlerRuns).toEqual([]);
    expect(await app.service.list()).toEqual([]);
  });

  it("hands the allocator an empty toolCallId when a host framework calls execute without options", async () => {
    const app = remoteApp();
    const allocator = recordingAllocator();
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId: allocator.invocationId });
    const execute = tools.orders_get!.execute as unknown as (input: unknown) => Promise<RemoteAISDKToolResult>;
    expect(await execute({ orderId: "o2" })).toMatchObject({ status: "ok", data: { orderId: "o2" } });
    expect(allocator.calls).toEqual([{ capabilityId: "orders.get", input: { orderId: "o2" }, toolCallId: "" }]);
  });
});

describe("remote execute: results", () => {
  it("approval-required carries the invocation id, and the app resumes that invocation once the approval is decided", async () => {
    const app = remoteApp();
    const allocator = recordingAllocator();
    const client = app.clientFor(dana);
    const tools = await toAISDKTools(client, { invocationId: allocator.invocationId });
    const pending = await runTool(tools, "orders_refund", { orderId: "o1", amount: 649 }, { toolCallId: "call_refund" });
    expect(pending).toMatchObject({ status: "approval-required", message: "Awaiting approval: Approval is required for orders.refund." });
    const { approvalId, invocationId } = pending as Extract<RemoteAISDKToolResult, { status: "approval-required" }>;
    expect(approvalId).toMatch(/^apr_/);
    expect(invocationId).toBe(allocator.committed.get("call_refund"));
    expect(Object.keys(pending)).toEqual(["status", "approvalId", "message", "invocationId"]);
    expect(app.handlerRuns).toEqual([]);

    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: priya });
    expect(await client.resume({ invocationId, approvalId })).toMatchObject({ status: "completed", output: { refunded: 649, approvedBy: "u_priya" } });
    expect(app.handlerRuns).toEqual(["orders.refund"]);
  });

  it("maps the client's outcome-unknown to the exact outcome-unknown result under the allocated id", async () => {
    let sent = "";
    const spy = stubbed(async (request) => {
      sent = request.invocationId;
      return remoteResults.outcomeUnknown(request.invocationId, "transport");
    });
    const tools = await toAISDKTools(spy.client, { invocationId: async () => "inv-fixed-1" });
    const result = await runTool(tools, "orders_get", {});
    expect(sent).toBe("inv-fixed-1");
    expect(JSON.stringify(result)).toBe(`{"status":"outcome-unknown","invocationId":"inv-fixed-1","message":"${UNKNOWN_MESSAGE}"}`);
  });

  it("D-4: a client that rejects after the id was allocated yields outcome-unknown, never a throw or an error", async () => {
    for (const rejection of [new Error("socket hang up"), new TypeError("fetch failed"), "weird"]) {
      const spy = stubbed(() => Promise.reject(rejection));
      const tools = await toAISDKTools(spy.client, { invocationId: async () => "inv-fixed-2" });
      expect(await runTool(tools, "orders_get", {}), String(rejection)).toEqual({ status: "outcome-unknown", invocationId: "inv-fixed-2", message: UNKNOWN_MESSAGE });
    }
  });

  it("an abort after the request left is outcome-unknown over HTTP; the server's read saw the abort", async () => {
    const app = buildApp();
    const server = await startCapabilityServer({ runtime: app.runtime, appContext: context, actors: [dana] });
    try {
      const run = app.nextSlowRun();
      const tools = await toAISDKTools(server.clientFor(dana), { invocationId: async () => "inv-slow-1" });
      const controller = new AbortController();
      const call = runTool(tools, "support_slow", {}, { abortSignal: controller.signal });
      await run.started;
      controller.abort();
      expect(await call).toEqual({ status: "outcome-unknown", invocationId: "inv-slow-1", message: UNKNOWN_MESSAGE });
      expect((await run.settled).aborted).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("SI-3: an identity smuggled in the arguments leaves the server's actor unchanged", async () => {
    const app = remoteApp();
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId: async () => newInvocationId() });
    const result = await runTool(tools, "support_whoami", { actor: { id: "u_admin", kind: "user" }, as: "u_admin" });
    expect(result).toMatchObject({ status: "ok", data: { actor: { id: "u_dana", kind: "user" } } });
    expect(app.events.filter((event) => event.capabilityId === "support.whoami").map((event) => event.actor.id)).toEqual(["u_dana", "u_dana", "u_dana"]);
  });
});

describe("remote execute: signals (adapters.md §1.6)", () => {
  it("passes a single signal through as the very same object, whichever side it comes from", async () => {
    const spy = stubbed(async (request) => remoteResults.completed(request.invocationId));
    const option = new AbortController().signal;
    const perCall = new AbortController().signal;
    const withOption = await toAISDKTools(spy.client, { invocationId: async () => newInvocationId(), signal: option });
    await runTool(withOption, "orders_get", {});
    const bare = await toAISDKTools(spy.client, { invocationId: async () => newInvocationId() });
    await runTool(bare, "orders_get", {}, { abortSignal: perCall });
    expect(spy.invokes[0]!.options).toStrictEqual({ signal: option });
    expect(spy.invokes[1]!.options!.signal).toBe(perCall);
    expect(getEventListeners(option, "abort").length + getEventListeners(perCall, "abort").length).toBe(0);
  });

  it("composes two signals without AbortSignal.any and leaves no listener behind once the call settles", async () => {
    const any = vi.spyOn(AbortSignal, "any");
    const option = new AbortController();
    const perCall = new AbortController();
    let listenersDuringCall: number[] = [];
    let passed: AbortSignal | undefined;
    const spy = stubbed(async (request, options) => {
      listenersDuringCall = [getEventListeners(option.signal, "abort").length, getEventListeners(perCall.signal, "abort").length];
      passed = options?.signal;
      perCall.abort("step cancelled");
      return remoteResults.completed(request.invocationId);
    });
    const tools = await toAISDKTools(spy.client, { invocationId: async () => newInvocationId(), signal: option.signal });
    await runTool(tools, "orders_get", {}, { abortSignal: perCall.signal });
    expect(passed).not.toBe(option.signal);
    expect(passed).not.toBe(perCall.signal);
    expect(passed!.aborted).toBe(true);
    expect(passed!.reason).toBe("step cancelled");
    expect(listenersDuringCall).toEqual([1, 1]);
    expect([getEventListeners(option.signal, "abort").length, getEventListeners(perCall.signal, "abort").length]).toEqual([0, 0]);
    expect(any).not.toHaveBeenCalled();
    any.mockRestore();
  });

  it("removes the listeners of a composed signal when calls settle without an abort, and when the allocator fails", async () => {
    const option = new AbortController();
    const perCall = new AbortController();
    const spy = stubbed(async (request) => remoteResults.completed(request.invocationId));
    const tools = await toAISDKTools(spy.client, { invocationId: async () => newInvocationId(), signal: option.signal });
    for (let i = 0; i < 3; i++) await runTool(tools, "orders_get", {}, { abortSignal: perCall.signal });
    const failing = await toAISDKTools(spy.client, { invocationId: () => Promise.reject(new Error("down")), signal: option.signal });
    await runTool(failing, "orders_get", {}, { abortSignal: perCall.signal });
    expect([getEventListeners(option.signal, "abort").length, getEventListeners(perCall.signal, "abort").length]).toEqual([0, 0]);
  });

  it("either signal cancels the call: an abort before dispatch is CANCELLED and nothing ran", async () => {
    for (const side of ["option", "per-call"] as const) {
      const app = remoteApp();
      const option = new AbortController();
      const perCall = new AbortController();
      const tools = await toAISDKTools(app.clientFor(dana), { invocationId: async () => newInvocationId(), signal: option.signal });
      (side === "option" ? option : perCall).abort();
      const result = await runTool(tools, "orders_get", { orderId: "o1" }, { abortSignal: perCall.signal });
      expect(result, side).toEqual({ status: "error", error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false } });
      expect(app.handlerRuns).toEqual([]);
    }
  });
});

describe("remote tools in the real generateText loop", () => {
  it("the SDK's toolCallIds reach the allocator once per call; ok and approval-required are tool outputs, not tool errors", async () => {
    const app = remoteApp();
    const allocator = recordingAllocator();
    const tools = await toAISDKTools(app.clientFor(dana), { invocationId: allocator.invocationId });
    const { model } = scriptedModel([
      [toolCall("call_read", "orders_get", { orderId: "o1" }), toolCall("call_refund", "orders_refund", { orderId: "o1", amount: 649 })],
      [text("The refund is waiting for a manager.")],
    ]);
    const result = await generateText({ model, tools, prompt: "Refund order o1.", stopWhen: stepCountIs(5) });

    expect(allocator.calls.map((call) => call.toolCallId).sort()).toEqual(["call_read", "call_refund"]);
    expect(allocator.calls.find((call) => call.toolCallId === "call_refund")).toEqual({
      capabilityId: "orders.refund",
      input: { orderId: "o1", amount: 649 },
      toolCallId: "call_refund",
    });
    const parts = result.steps[0]!.content as { type: string; toolCallId?: string; output?: unknown }[];
    expect(parts.filter((part) => part.type === "tool-error")).toEqual([]);
    const outputs = Object.fromEntries(parts.filter((part) => part.type === "tool-result").map((part) => [part.toolCallId, part.output]));
    expect(outputs.call_read).toEqual({ status: "ok", data: { orderId: "o1", total: 649, status: "delivered" } });
    expect(outputs.call_refund).toMatchObject({ status: "approval-required", invocationId: allocator.committed.get("call_refund") });
    expect(result.text).toBe("The refund is waiting for a manager.");
  });
});
