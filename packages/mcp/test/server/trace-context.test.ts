// `traceContext`: a tools/call whose request `_meta` carries W3C `traceparent` (and `tracestate`) runs inside the
// app's hook, which hands it to the tracing adapter (e.g. `withTraceContext` from @orpc-agent/opentelemetry).
import { describe, expect, it } from "vitest";
import type { MCPTraceCarrier } from "../../src/index.js";
import { createTestApp } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { ERAS, serveApp } from "../support/handler.js";

closeEverythingAfterEachTest();

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
type Result = { structuredContent?: unknown };

describe.each(ERAS)("$era", ({ connect }) => {
  it("the hook receives the request's traceparent and tracestate and runs the call inside it, once", async () => {
    const carriers: MCPTraceCarrier[] = [];
    let inside = 0;
    const { url } = await serveApp(createTestApp(), {
      traceContext: async (carrier, run) => {
        carriers.push(carrier);
        inside++;
        try {
          return await run();
        } finally {
          inside--;
        }
      },
    });
    const client = await connect(url, "tok-dana");
    const call = { name: "notes_whoami", arguments: {}, _meta: { traceparent: TRACEPARENT, tracestate: "vendor=abc" } };
    const result = (await client.callTool(call as never)) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "t1" } });
    expect(carriers).toEqual([{ traceparent: TRACEPARENT, tracestate: "vendor=abc" }]);
    expect(inside).toBe(0);
  });

  it("without a traceparent the hook is not called; a hook that throws before running still lets the call run once", async () => {
    const app = createTestApp();
    let calls = 0;
    const { url } = await serveApp(app, {
      traceContext: async () => {
        calls++;
        throw new Error("tracing is down");
      },
    });
    const client = await connect(url, "tok-dana");
    expect(((await client.callTool({ name: "notes_whoami", arguments: {} })) as Result).structuredContent).toMatchObject({ status: "ok" });
    expect(calls).toBe(0);
    const traced = { name: "notes_count", arguments: { n: 3 }, _meta: { traceparent: TRACEPARENT } };
    expect(((await client.callTool(traced as never)) as Result).structuredContent).toEqual({ status: "ok", data: { counted: 3 } });
    expect(calls).toBe(1);
    const completed = (await app.auditEvents()).filter((event) => event.type === "capability.completed" && event.capabilityId === "notes.count");
    expect(completed).toHaveLength(1);
  });
});
