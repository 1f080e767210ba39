import { context, trace } from "@opentelemetry/api";
import { beforeEach, describe, expect, it } from "vitest";
import { withTraceContext } from "../src/index.js";
import { createRecorder, useAsyncContext } from "./support/recorder.js";
import { dana } from "./support/registry.js";
import { createTracedRuntime } from "./support/runtime.js";
import { spanNamed } from "./support/span-tree.js";

useAsyncContext();

const recorder = createRecorder();
beforeEach(() => recorder.reset());
const opts = { actor: dana, context: {} };
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

describe("withTraceContext: a protocol's W3C traceparent becomes the call's parent", () => {
  it("the capability span joins the remote trace as a child of the carried span, tracestate kept", async () => {
    const { runtime } = createTracedRuntime(recorder.tracing);
    const carrier = { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: "vendor=abc" };
    const result = await withTraceContext(carrier, () => runtime.invoke("orders.get", { id: "o1" }, opts));
    expect(result.status).toBe("completed");
    const root = spanNamed(recorder.spans(), "agent.capability_call");
    expect(root.spanContext().traceId).toBe(TRACE_ID);
    expect(root.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(root.parentSpanContext?.isRemote).toBe(true);
    expect(root.parentSpanContext?.traceState?.get("vendor")).toBe("abc");
  });

  it.each(["", "garbage", `00-${"0".repeat(32)}-${PARENT_ID}-01`, `00-${TRACE_ID}-${"0".repeat(16)}-01`, `ff-${TRACE_ID}-${PARENT_ID}-01`, `00-${TRACE_ID}-${PARENT_ID}-01-extra`])(
    "a malformed traceparent %j is ignored: the call keeps the current context",
    async (traceparent) => {
      const { runtime } = createTracedRuntime(recorder.tracing);
      const outer = recorder.tracer.startSpan("outer");
      await context.with(trace.setSpan(context.active(), outer), () => withTraceContext({ traceparent }, () => runtime.invoke("orders.get", { id: "o1" }, opts)));
      outer.end();
      const root = spanNamed(recorder.spans(), "agent.capability_call");
      expect(root.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    },
  );
});
