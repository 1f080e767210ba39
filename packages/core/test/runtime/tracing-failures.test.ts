// A tracer observes calls and never decides them: whatever its spans throw, every call keeps exactly one outcome
// and its audit trail (SI-12), and the failures are reported, not lost.
import { os } from "@orpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
  type AgentMeta,
  type SpanHandle,
  type TracingAdapter,
} from "../../src/index.js";
import { dana } from "./execution-harness.js";

afterEach(() => vi.restoreAllMocks());

const base = agentProcedure(os);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "A capability.", expose: { direct: true }, sideEffect: "read", risk: "low", ...extra });
const registry = createCapabilityRegistry({
  ok: base.meta(agentMeta(meta())).handler(() => "done"),
  fails: base.meta(agentMeta(meta())).handler(() => {
    throw new CapabilityError({ code: "EXECUTION_FAILED" });
  }),
  hangs: base.meta(agentMeta(meta({ timeoutMs: 5 }))).handler(() => new Promise<never>(() => {})),
});
const governance = defineGovernance({ registry, policies: [definePolicy("open", () => allow())] });

const boom = (where: string) => () => {
  throw new Error(`tracer broke in ${where}`);
};
const brokenSpan: SpanHandle = { setAttributes: boom("setAttributes"), recordError: boom("recordError"), end: boom("end") };

function run(tracing: TracingAdapter) {
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime({ governance, tracing, audit: (e) => void events.push(e) });
  return { runtime, events };
}

describe("a failing tracing adapter", () => {
  it.each([
    ["every span method throws", { startSpan: () => brokenSpan }],
    ["startSpan throws", { startSpan: boom("startSpan") }],
    ["startSpan returns no span", { startSpan: () => undefined as unknown as SpanHandle }],
  ])("SI-12: %s: completed, failed and timed-out calls each end once, with their terminal event", async (_, tracing) => {
    const report = vi.spyOn(console, "error").mockImplementation(() => {});
    const { runtime, events } = run(tracing);
    const actor = dana;
    const done = await runtime.invoke("ok", undefined, { actor, context: {} });
    const failed = await runtime.invoke("fails", undefined, { actor, context: {} });
    const timedOut = await runtime.invoke("hangs", undefined, { actor, context: {} });
    expect(done).toMatchObject({ status: "completed", output: "done" });
    expect(failed).toMatchObject({ status: "failed", error: { code: "EXECUTION_FAILED" } });
    expect(timedOut).toMatchObject({ status: "cancelled", error: { code: "TIMEOUT" } });
    const terminal = events.filter((e) => ["capability.completed", "capability.failed", "capability.cancelled"].includes(e.type));
    expect(terminal.map((e) => [e.type, e.executionId])).toEqual([
      ["capability.completed", done.executionId],
      ["capability.failed", failed.executionId],
      ["capability.cancelled", timedOut.executionId],
    ]);
    expect(report).toHaveBeenCalled();
    expect(String(report.mock.calls[0]![0])).toContain("[orpc-agent] tracing adapter failed in");
  });

  it("children are started under the adapter's own span, not the runtime's wrapper", async () => {
    const handles = new Set<SpanHandle>();
    const parents: (SpanHandle | undefined)[] = [];
    const tracing: TracingAdapter = {
      startSpan(_name, _attributes, parent) {
        parents.push(parent);
        const span: SpanHandle = { setAttributes() {}, recordError() {}, end() {} };
        handles.add(span);
        return span;
      },
    };
    const { runtime } = run(tracing);
    await runtime.invoke("ok", undefined, { actor: dana, context: {} });
    // The root, then the policy batch and the attempt under it.
    expect(parents).toHaveLength(3);
    expect(parents[0]).toBeUndefined();
    for (const parent of parents.slice(1)) expect(handles.has(parent!)).toBe(true);
  });

  it("a tracing option without startSpan is refused when the runtime is built", () => {
    expect(() => createAgentRuntime({ governance, tracing: {} as TracingAdapter })).toThrow(TypeError);
    expect(() => createAgentRuntime({ governance, tracing: null as unknown as TracingAdapter })).toThrow(/startSpan/);
  });
});
