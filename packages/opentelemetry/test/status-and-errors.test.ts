import { SpanStatusCode } from "@opentelemetry/api";
import { CapabilityError } from "@orpc-agent/core";
import { beforeEach, describe, expect, it } from "vitest";
import { createRecorder, useAsyncContext } from "./support/recorder.js";
import { dana, mallory, SENTINEL } from "./support/registry.js";
import { createTracedRuntime, requestAndApproveRefund } from "./support/runtime.js";
import { exportedText, spanNamed } from "./support/span-tree.js";

useAsyncContext();

const recorder = createRecorder();
beforeEach(() => recorder.reset());
const opts = { actor: dana, context: {} };
const root = () => spanNamed(recorder.spans(), "agent.capability_call");

describe("status mapping (adapters.md §6)", () => {
  it("completed → OK, without an exception event", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    await runtime.invoke("orders.get", { id: "o1" }, opts);
    expect(root().status).toEqual({ code: SpanStatusCode.OK });
    expect(root().events).toEqual([]);
  });

  it("approval-required → OK: a suspension is not an error", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.refund", { id: "o1", amount: 5 }, opts);
    expect(result.status).toBe("approval-required");
    expect(root().status).toEqual({ code: SpanStatusCode.OK });
    expect(spanNamed(recorder.spans(), "agent.approval_request").status).toEqual({ code: SpanStatusCode.OK });
    expect(root().events).toEqual([]);
  });

  it("failed → ERROR, after one exception event", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    await runtime.invoke("orders.get", { id: "o1" }, { actor: mallory, context: {} });
    expect(root().status).toEqual({ code: SpanStatusCode.ERROR });
    expect(root().events.map((e) => e.name)).toEqual(["exception"]);
  });

  it("cancelled (caller abort) → ERROR with CANCELLED", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const controller = new AbortController();
    const pending = runtime.invoke("orders.slow", { id: "o1" }, { ...opts, signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect(root().status).toEqual({ code: SpanStatusCode.ERROR });
    expect(root().attributes["orpc_agent.outcome"]).toBe("cancelled");
    expect(root().events.map((e) => e.attributes)).toEqual([{ "exception.type": "CapabilityError", "exception.message": "CANCELLED: The operation was cancelled." }]);
  });

  it("a resume refused at R3 (consumed) → ERROR", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const pending = await requestAndApproveRefund(runtime, dana, "n");
    await runtime.resume(pending.approval.id, { context: {} });
    recorder.reset();
    const again = await runtime.resume(pending.approval.id, { context: {} });
    expect(again.status === "failed" && again.error.code).toBe("APPROVAL_CONSUMED");
    expect(root().status).toEqual({ code: SpanStatusCode.ERROR });
    expect(root().attributes["orpc_agent.error_code"]).toBe("APPROVAL_CONSUMED");
  });
});

describe("recordError (adapters.md §6: the error's name and `code: publicMessage` only)", () => {
  it("SI-10: a runtime failure records the public code and message, never the thrown message or its cause", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const result = await runtime.invoke("orders.broken", { id: "o1", note: SENTINEL.input }, opts);
    expect(result.status).toBe("failed");
    expect(root().events.map((e) => ({ name: e.name, attributes: e.attributes }))).toEqual([
      { name: "exception", attributes: { "exception.type": "CapabilityError", "exception.message": "EXECUTION_FAILED: The operation failed." } },
    ]);
    const text = exportedText(recorder.spans());
    for (const secret of [SENTINEL.thrown, SENTINEL.cause, SENTINEL.input, "stack", "    at "]) expect(text).not.toContain(secret);
  });

  it("SI-10: a CapabilityError handed to recordError directly loses its cause, details and stack", () => {
    const span = recorder.tracing.startSpan("agent.capability_call", {});
    const error = new CapabilityError({
      code: "POLICY_DENIED",
      publicMessage: "Refunds above the limit are denied.",
      details: { policy: SENTINEL.input },
      cause: new Error(SENTINEL.cause),
    });
    span.recordError(error);
    span.end("error");
    const [event] = root().events;
    expect(event?.name).toBe("exception");
    expect(event?.attributes).toEqual({ "exception.type": "CapabilityError", "exception.message": "POLICY_DENIED: Refunds above the limit are denied." });
    expect(exportedText(recorder.spans())).not.toContain(SENTINEL.cause);
    expect(exportedText(recorder.spans())).not.toContain(SENTINEL.input);
  });

  it("SI-10: an error without a public code keeps only its name: its message may carry payload", () => {
    const span = recorder.tracing.startSpan("agent.capability_call", {});
    span.recordError(new TypeError(SENTINEL.thrown, { cause: SENTINEL.cause }));
    span.recordError(SENTINEL.thrown);
    span.recordError(undefined);
    span.recordError({ code: 42, publicMessage: SENTINEL.thrown });
    span.end("error");
    expect(root().events.map((e) => e.attributes)).toEqual([
      { "exception.type": "TypeError" },
      { "exception.type": "Error" },
      { "exception.type": "Error" },
      { "exception.type": "Error" },
    ]);
  });

  it("end maps ok/error to the OTel status codes and ends the span once", () => {
    recorder.tracing.startSpan("a", {}).end("ok");
    recorder.tracing.startSpan("b", {}).end("error");
    expect(recorder.spans().map((s) => [s.name, s.status.code, s.ended])).toEqual([
      ["a", SpanStatusCode.OK, true],
      ["b", SpanStatusCode.ERROR, true],
    ]);
  });
});
