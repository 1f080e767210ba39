import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type AgentAuditEvent,
  type AuditConfig,
} from "../../src/index.js";
import { dana, deferred, flush, type Deferred } from "./execution-harness.js";

const registry = createCapabilityRegistry({
  ping: agentProcedure(os)
    .meta(agentMeta({ description: "Ping.", expose: { direct: true }, sideEffect: "none", risk: "low" }))
    .handler(() => "pong"),
});
const governance = defineGovernance({ registry });

/** A sink whose every write stays pending until the test settles it. */
function heldSink() {
  const writes: { event: AgentAuditEvent; write: Deferred<void> }[] = [];
  const sink = (event: AgentAuditEvent) => {
    const write = deferred();
    writes.push({ event, write });
    return write.promise;
  };
  return { sink, writes };
}

const runtimeWith = (audit: AuditConfig) => createAgentRuntime({ governance, audit });
const invokePing = (runtime: ReturnType<typeof runtimeWith>) => runtime.invoke("ping", undefined, { actor: dana, context: {} });

/** Tracks whether a promise has settled, without letting a rejection go unhandled. */
function track(promise: Promise<void>) {
  const state: { settled: boolean; error: unknown; resolved: boolean } = { settled: false, error: undefined, resolved: false };
  const done = promise.then(
    () => {
      state.settled = true;
      state.resolved = true;
    },
    (error) => {
      state.settled = true;
      state.error = error;
    },
  );
  return { state, done };
}

describe("runtime.drainAudit (core.md §11)", () => {
  it("resolves at once when nothing is in flight, with or without sinks", async () => {
    await expect(createAgentRuntime({ governance }).drainAudit()).resolves.toBeUndefined();
    await expect(runtimeWith(() => {}).drainAudit({ timeoutMs: 10 })).resolves.toBeUndefined();
  });

  it("waits until every write has settled, including one started while it waits", async () => {
    const held = heldSink();
    const runtime = runtimeWith({ sinks: [held.sink], onSinkError: () => {} });
    await invokePing(runtime);
    expect(held.writes).toHaveLength(3);
    const drain = track(runtime.drainAudit());
    await flush();
    expect(drain.state.settled).toBe(false);

    // A second execution starts more writes while the drain waits.
    await invokePing(runtime);
    expect(held.writes).toHaveLength(6);
    for (const { write } of held.writes.slice(0, 3)) write.resolve();
    await flush();
    expect(drain.state.settled).toBe(false);

    for (const { write } of held.writes.slice(3)) write.resolve();
    await drain.done;
    expect(drain.state.resolved).toBe(true);
  });

  it("rejects AUDIT_UNAVAILABLE with the failure as cause, reports it once, then resolves on the next drain", async () => {
    const sinkError = new Error("audit store down");
    const reports: unknown[] = [];
    const runtime = runtimeWith({
      sinks: [(event) => (event.type === "capability.completed" ? Promise.reject(sinkError) : undefined)],
      onSinkError: (err) => void reports.push(err),
    });
    await invokePing(runtime);
    const error = await runtime.drainAudit().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CapabilityError);
    expect(error).toMatchObject({ code: "AUDIT_UNAVAILABLE", retryable: true, exposeToModel: false });
    expect((error as CapabilityError).cause).toBe(sinkError);
    // Failures still reach onSinkError.
    expect(reports).toEqual([sinkError]);
    await expect(runtime.drainAudit()).resolves.toBeUndefined();
  });

  it("a synchronous sink throw also counts as a failed write", async () => {
    const sinkError = new Error("sync failure");
    const runtime = runtimeWith({
      sinks: [
        (event) => {
          if (event.type === "capability.started") throw sinkError;
        },
      ],
      onSinkError: () => {},
    });
    await invokePing(runtime);
    await expect(runtime.drainAudit()).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE", cause: sinkError });
    await expect(runtime.drainAudit()).resolves.toBeUndefined();
  });

  it("several failures since the last drain are reported as an AggregateError cause", async () => {
    const first = new Error("first");
    const second = new Error("second");
    const runtime = runtimeWith({
      sinks: [
        (event) => (event.type === "capability.requested" ? Promise.reject(first) : undefined),
        (event) => (event.type === "capability.completed" ? Promise.reject(second) : undefined),
      ],
      onSinkError: () => {},
    });
    await invokePing(runtime);
    const error = (await runtime.drainAudit().catch((e: unknown) => e)) as CapabilityError;
    expect(error.code).toBe("AUDIT_UNAVAILABLE");
    expect(error.cause).toBeInstanceOf(AggregateError);
    expect((error.cause as AggregateError).errors).toEqual([first, second]);
  });

  it("rejects AUDIT_UNAVAILABLE when the deadline passes before the writes settle", async () => {
    const held = heldSink();
    const runtime = runtimeWith({ sinks: [held.sink], onSinkError: () => {} });
    await invokePing(runtime);
    // The held writes never settle on their own: only the deadline can end this drain before the test's timeout.
    await expect(runtime.drainAudit({ timeoutMs: 20 })).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    // Settling later is harmless, and a later drain succeeds.
    for (const { write } of held.writes) write.resolve();
    await expect(runtime.drainAudit({ timeoutMs: 1_000 })).resolves.toBeUndefined();
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, "100", null])("rejects timeoutMs %s with a TypeError", async (timeoutMs) => {
    const runtime = runtimeWith(() => {});
    await expect(async () => runtime.drainAudit({ timeoutMs: timeoutMs as number })).rejects.toThrow(TypeError);
  });

  it("concurrent drains are safe: both settle, and one failure is reported at most once", async () => {
    const held = heldSink();
    const sinkError = new Error("late failure");
    const runtime = runtimeWith({ sinks: [held.sink], onSinkError: () => {} });
    await invokePing(runtime);
    const a = track(runtime.drainAudit());
    const b = track(runtime.drainAudit());
    await flush();
    expect(a.state.settled || b.state.settled).toBe(false);
    held.writes[0]!.write.reject(sinkError);
    for (const { write } of held.writes.slice(1)) write.resolve();
    await Promise.all([a.done, b.done]);
    const errors = [a.state.error, b.state.error].filter((e) => e !== undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "AUDIT_UNAVAILABLE", cause: sinkError });
    await expect(runtime.drainAudit()).resolves.toBeUndefined();
  });

  it("concurrent drains over successful writes both resolve", async () => {
    const held = heldSink();
    const runtime = runtimeWith(held.sink);
    await invokePing(runtime);
    const drains = [runtime.drainAudit(), runtime.drainAudit(), runtime.drainAudit()];
    for (const { write } of held.writes) write.resolve();
    await expect(Promise.all(drains)).resolves.toEqual([undefined, undefined, undefined]);
  });

  it("drains are per runtime: another runtime's pending writes do not block it", async () => {
    const held = heldSink();
    const busy = runtimeWith({ sinks: [held.sink], onSinkError: () => {} });
    await invokePing(busy);
    const idle = runtimeWith(() => {});
    await invokePing(idle);
    await expect(idle.drainAudit({ timeoutMs: 50 })).resolves.toBeUndefined();
    for (const { write } of held.writes) write.resolve();
    await expect(busy.drainAudit()).resolves.toBeUndefined();
  });
});
