// docs/architecture/spec/adapters.md#adapters-2-3: the fields of a generated tool and what its execute hands the runtime.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { allow, definePolicy, deny, requireApproval, type ExecutionResult } from "@orpc-agent/core";
import { TOOL_RESULT_SCHEMA } from "../src/tool-output.js";
import { toAISDKTools } from "../src/index.js";
import { admin, buildApp, context, dana } from "./support/app.js";
import { runTool } from "./support/run-tool.js";
import { spyRuntime } from "./support/spy-runtime.js";

const CONCEALED = '{"status":"error","error":{"code":"INTERNAL_ERROR","message":"The operation failed.","retryable":false}}';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("generated tool fields", () => {
  it("inputSchema.jsonSchema equals the descriptor's input schema, and carries no validate", async () => {
    const { runtime } = buildApp();
    const tools = await toAISDKTools(runtime, { actor: admin, context });
    const descriptors = await runtime.describe("aiSdk", { actor: admin, context });
    for (const descriptor of descriptors.filter((d) => d.contextual !== true)) {
      const tool = tools[descriptor.id.replaceAll(".", "_")]!;
      const schema = tool.inputSchema as { jsonSchema: unknown; validate?: unknown };
      expect(schema.jsonSchema, descriptor.id).toEqual(descriptor.inputSchema);
      expect(schema.validate, descriptor.id).toBeUndefined();
    }
    expect((tools.notes_add!.inputSchema as { jsonSchema: unknown }).jsonSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", minLength: 1 } },
    });
  });

  it("the input schema is shared between builds only frozen: no tool set can change what another one shows", async () => {
    const { runtime } = buildApp();
    const first = await toAISDKTools(runtime, { actor: admin, context });
    const schema = first.notes_add!.inputSchema as { jsonSchema: { properties: Record<string, unknown> }; validate?: unknown };
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.jsonSchema.properties)).toBe(true);
    // ESM is strict mode: a write to the shared schema throws instead of leaking into the next request's tools.
    expect(() => {
      schema.jsonSchema.properties.smuggled = { type: "string" };
    }).toThrow(TypeError);
    expect(() => {
      schema.validate = () => ({ success: true, value: {} });
    }).toThrow(TypeError);

    const second = await toAISDKTools(runtime, { actor: dana, context });
    const fresh = await runtime.describe("aiSdk", { actor: dana, context });
    expect((second.notes_add!.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(fresh.find((d) => d.id === "notes.add")!.inputSchema);
    expect((second.notes_add!.inputSchema as { validate?: unknown }).validate).toBeUndefined();
    // The tools themselves are never shared: each build binds its own actor.
    expect(second.notes_add).not.toBe(first.notes_add);
    // describe still hands out mutable copies of its own.
    expect(Object.isFrozen(fresh[0]!.inputSchema)).toBe(false);
  });

  it("needsApproval and toModelOutput are undefined on every tool, as are strict and providerOptions; the output schema is the envelope's and metadata names the capability", async () => {
    const { runtime } = buildApp();
    for (const actor of [dana, admin]) {
      const tools = await toAISDKTools(runtime, { actor, context });
      for (const [name, tool] of Object.entries(tools)) {
        const fields = tool as Record<string, unknown>;
        for (const field of ["needsApproval", "toModelOutput", "strict", "providerOptions", "onInputAvailable"]) {
          expect(fields[field], `${name}.${field}`).toBeUndefined();
        }
        expect((tool.outputSchema as { jsonSchema: unknown }).jsonSchema, name).toEqual(TOOL_RESULT_SCHEMA);
        expect((tool.outputSchema as { validate?: unknown }).validate, name).toBeUndefined();
        const capabilityId = (fields.metadata as { orpcAgent: { capabilityId: string } }).orpcAgent.capabilityId;
        expect(name).toBe(capabilityId.replaceAll(".", "_"));
        expect(typeof tool.execute, name).toBe("function");
      }
    }
  });

  it('describes a capability verbatim, with " Requires approval." when its descriptor requires approval', async () => {
    // A discovery policy can require approval too; the descriptor says so either way.
    const notesNeedApproval = definePolicy("notes-need-approval", () => requireApproval({ reason: "Notes are reviewed." }), {
      phases: ["discovery"],
      scope: { capabilities: { ids: ["notes.add"] } },
    });
    const { runtime } = buildApp({ policies: [notesNeedApproval] });
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    expect(Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, tool.description]))).toEqual({
      orders_get: "Read an order.",
      orders_refund: "Refund an order. Requires approval.",
      support_whoami: "Report who runs this call.",
      support_slow: "Search the archive until cancelled.",
      notes_add: "Add a note. Requires approval.",
    });
  });
});

describe("execute", () => {
  it("hands the runtime the raw arguments object with the bound actor, context, surface aiSdk and correlationId, and nothing else", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime);
    const tools = await toAISDKTools(spy.runtime, { actor: dana, context, correlationId: "chat-42" });
    const args = { orderId: "o1", extra: { nested: [1] } };
    await runTool(tools, "orders_get", args);
    expect(spy.invokes).toHaveLength(1);
    expect(spy.invokes[0]!.id).toBe("orders.get");
    expect(spy.invokes[0]!.input).toBe(args);
    expect(args).toEqual({ orderId: "o1", extra: { nested: [1] } });
    expect(spy.invokes[0]!.options).toStrictEqual({ actor: dana, context, surface: "aiSdk", correlationId: "chat-42" });
  });

  it("SI-3: an identity smuggled in the arguments leaves ctx.agent.actor and the audit trail unchanged", async () => {
    const app = buildApp();
    const tools = await toAISDKTools(app.runtime, { actor: dana, context });
    const result = await runTool(tools, "support_whoami", { actor: admin, as: "u_admin" });
    expect(result).toEqual({ status: "ok", data: { actor: dana, tenant: "acme" } });
    const events = app.events.filter((event) => event.capabilityId === "support.whoami");
    expect(events.map((event) => event.type)).toEqual(["capability.requested", "capability.started", "capability.completed"]);
    for (const event of events) expect(event.actor).toEqual({ id: "u_dana", kind: "user" });
  });

  it("does not validate, coerce or default: mistyped and non-object arguments reach the runtime, which answers INPUT_INVALID", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime);
    const tools = await toAISDKTools(spy.runtime, { actor: dana, context });
    for (const args of [{ text: 42 }, null, ["text"], "text", undefined]) {
      const result = await runTool(tools, "notes_add", args);
      expect(result, JSON.stringify(args)).toMatchObject({ status: "error", error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false } });
      expect(spy.invokes.at(-1)!.input).toBe(args);
    }
    expect(app.handlerRuns).toEqual([]);
  });

  it("passes prototype keys through untouched to the runtime, which strips them; nothing is polluted", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime);
    const tools = await toAISDKTools(spy.runtime, { actor: dana, context });
    const args: unknown = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"text":"hi"}');
    expect(await runTool(tools, "notes_add", args)).toEqual({ status: "ok", data: { added: "hi" } });
    expect(spy.invokes[0]!.input).toBe(args);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("INPUT_INVALID carries issue paths and messages, never the offending values", async () => {
    const { runtime } = buildApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const result = await runTool(tools, "orders_refund", { orderId: "o1", amount: -98765 });
    expect(result).toMatchObject({ status: "error", error: { code: "INPUT_INVALID", details: { issues: [{ path: ["amount"] }] } } });
    const issues = (result as { error: { details: { issues: object[] } } }).error.details.issues;
    for (const issue of issues) expect(Object.keys(issue).sort()).toEqual(["message", "path"]);
    expect(JSON.stringify(result)).not.toContain("98765");
  });

  it("returns ok, approval-required and policy errors as results, never as throws", async () => {
    const noShouting = definePolicy("no-shouting", (req) => ((req.input as { text: string }).text === "PURGE" ? deny("SHOUTING", "Notes may not shout.") : allow()), {
      scope: { capabilities: { ids: ["notes.add"] } },
    });
    const { runtime } = buildApp({ policies: [noShouting] });
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    expect(await runTool(tools, "orders_get", { orderId: "o7" })).toEqual({ status: "ok", data: { orderId: "o7", total: 649, status: "delivered" } });
    expect(await runTool(tools, "orders_refund", { orderId: "o7", amount: 5 })).toEqual({
      status: "approval-required",
      approvalId: expect.stringMatching(/^apr_/),
      message: "Awaiting approval: Approval is required for orders.refund.",
    });
    expect(JSON.stringify(await runTool(tools, "notes_add", { text: "PURGE" }))).toBe(
      '{"status":"error","error":{"code":"POLICY_DENIED","message":"Notes may not shout.","retryable":false}}',
    );
  });

  it("works when a host framework calls execute without options", async () => {
    const { runtime } = buildApp();
    const tools = await toAISDKTools(runtime, { actor: dana, context });
    const execute = tools.orders_get!.execute as unknown as (input: unknown, options?: unknown) => Promise<unknown>;
    expect(await execute({ orderId: "o2" })).toEqual({ status: "ok", data: { orderId: "o2", total: 649, status: "delivered" } });
  });

  it("never throws: a rejecting runtime yields the concealed envelope, with no trace of the rejection", async () => {
    const app = buildApp();
    const rejecting = spyRuntime(app.runtime, { invoke: () => Promise.reject(new Error("db password in here: hunter2")) });
    const tools = await toAISDKTools(rejecting.runtime, { actor: dana, context });
    const result = await runTool(tools, "orders_get", { orderId: "o1" });
    expect(JSON.stringify(result)).toBe(CONCEALED);

    const throwing = spyRuntime(app.runtime, {
      invoke: () => {
        throw new TypeError("synchronous failure: hunter2");
      },
    });
    expect(JSON.stringify(await runTool(await toAISDKTools(throwing.runtime, { actor: dana, context }), "orders_get", {}))).toBe(CONCEALED);

    // A host passing something that is not an AbortSignal gets the concealed result too.
    const composing = await toAISDKTools(app.runtime, { actor: dana, context, signal: new AbortController().signal });
    expect(JSON.stringify(await runTool(composing, "orders_get", {}, { abortSignal: { aborted: false } as AbortSignal }))).toBe(CONCEALED);

    const malformed = spyRuntime(app.runtime, { invoke: async () => ({ status: "failed", executionId: "exe_1", error: { code: "EXECUTION_FAILED" } }) as unknown as ExecutionResult });
    expect(JSON.stringify(await runTool(await toAISDKTools(malformed.runtime, { actor: dana, context }), "orders_get", {}))).toBe(CONCEALED);
  });
});

describe("execute: signals (adapters.md §1.6)", () => {
  const completed = async (): Promise<ExecutionResult> => ({ status: "completed", executionId: "exe_1", output: null });

  it("passes a single signal through as the very same object, whichever side it comes from", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime, { invoke: completed });
    const optionSignal = new AbortController().signal;
    const withOption = await toAISDKTools(spy.runtime, { actor: dana, context, signal: optionSignal });
    await runTool(withOption, "orders_get", {});
    expect(spy.invokes[0]!.options.signal).toBe(optionSignal);

    const callSignal = new AbortController().signal;
    const withoutOption = await toAISDKTools(spy.runtime, { actor: dana, context });
    await runTool(withoutOption, "orders_get", {}, { abortSignal: callSignal });
    expect(spy.invokes[1]!.options.signal).toBe(callSignal);

    await runTool(withoutOption, "orders_get", {});
    expect("signal" in spy.invokes[2]!.options).toBe(false);
    expect(getEventListeners(optionSignal, "abort").length + getEventListeners(callSignal, "abort").length).toBe(0);
  });

  it("composes two signals without AbortSignal.any and leaves no listener behind once the call settles", async () => {
    const app = buildApp();
    const any = vi.spyOn(AbortSignal, "any");
    let listenersDuringCall: number[] = [];
    const option = new AbortController();
    const perCall = new AbortController();
    const spy = spyRuntime(app.runtime, {
      invoke: async (_id, _input, options) => {
        listenersDuringCall = [getEventListeners(option.signal, "abort").length, getEventListeners(perCall.signal, "abort").length];
        option.abort("user left");
        expect(options.signal!.aborted).toBe(true);
        expect(options.signal!.reason).toBe("user left");
        return completed();
      },
    });
    const tools = await toAISDKTools(spy.runtime, { actor: dana, context, signal: option.signal });
    await runTool(tools, "orders_get", {}, { abortSignal: perCall.signal });
    const passed = spy.invokes[0]!.options.signal!;
    expect(passed).not.toBe(option.signal);
    expect(passed).not.toBe(perCall.signal);
    expect(listenersDuringCall).toEqual([1, 1]);
    expect([getEventListeners(option.signal, "abort").length, getEventListeners(perCall.signal, "abort").length]).toEqual([0, 0]);
    expect(any).not.toHaveBeenCalled();
  });

  it("removes the listeners of a composed signal when the call settles without an abort", async () => {
    const app = buildApp();
    const spy = spyRuntime(app.runtime, { invoke: completed });
    const option = new AbortController();
    const perCall = new AbortController();
    const tools = await toAISDKTools(spy.runtime, { actor: dana, context, signal: option.signal });
    for (let i = 0; i < 3; i++) await runTool(tools, "orders_get", {}, { abortSignal: perCall.signal });
    expect([getEventListeners(option.signal, "abort").length, getEventListeners(perCall.signal, "abort").length]).toEqual([0, 0]);
  });

  it("either signal cancels a running capability: the handler sees the abort, the result is CANCELLED, audit says capability.cancelled", async () => {
    for (const side of ["option", "per-call"] as const) {
      const app = buildApp();
      const option = new AbortController();
      const perCall = new AbortController();
      const tools = await toAISDKTools(app.runtime, { actor: dana, context, signal: option.signal });
      const run = app.nextSlowRun();
      const call = runTool(tools, "support_slow", {}, { abortSignal: perCall.signal });
      await run.started;
      (side === "option" ? option : perCall).abort();
      expect(await call, side).toEqual({ status: "error", error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false } });
      expect((await run.settled).aborted).toBe(true);
      const cancelled = app.events.filter((event) => event.type === "capability.cancelled");
      expect(cancelled.map((event) => [event.capabilityId, event.surface, (event.data as { code: string }).code])).toEqual([["support.slow", "aiSdk", "CANCELLED"]]);
    }
  });
});
