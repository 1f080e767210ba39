import { createHash } from "node:crypto";
import { os } from "@orpc/server";
import { z } from "zod";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  allow,
  deny,
  hide,
  type AgentAuditEvent,
  type AgentMeta,
  type AuditConfig,
} from "../../src/index.js";
import { collectingSink, dana, deferred, flush, manualClock } from "./execution-harness.js";

const base = agentProcedure(os);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "A capability.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "medium", ...extra });

const clock = manualClock();
let handlerCalls = 0;
let advanceInHandler = 0;

const registry = createCapabilityRegistry({
  orders: {
    get: base
      .input(z.object({ id: z.string() }))
      .meta(agentMeta(meta()))
      .handler(({ input }) => {
        handlerCalls++;
        clock.advance(advanceInHandler);
        return { id: input.id };
      }),
    anything: base.meta(agentMeta(meta())).handler(() => {
      handlerCalls++;
      return "ok";
    }),
    hidden: base.meta(agentMeta(meta({ expose: { mcp: true } }))).handler(() => "never"),
    throws: base.meta(agentMeta(meta({ sideEffect: "write" }))).handler(() => {
      handlerCalls++;
      throw new Error("boom");
    }),
    slow: base.meta(agentMeta(meta({ timeoutMs: 10 }))).handler(({ signal }) => {
      handlerCalls++;
      clock.advance(advanceInHandler);
      return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
    }),
  },
});

const policies = [
  definePolicy("read-ok", () => allow({ checked: true }), { scope: { capabilities: { ids: ["orders.anything"] } } }),
  definePolicy("block-mallory", (req) => (req.actor.id === "mallory" ? deny("no-mallory", "Not for you.") : allow()), {
    scope: { capabilities: { ids: ["orders.anything"] } },
  }),
  definePolicy("explode-for-eve", (req) => {
    if (req.actor.id === "eve") throw new Error("policy bug");
    return allow();
  }, { scope: { capabilities: { ids: ["orders.anything"] } } }),
  definePolicy("hide-from-zed", (req) => (req.actor.id === "zed" ? hide() : allow()), { scope: { capabilities: { ids: ["orders.anything"] } } }),
];
const governance = defineGovernance({ registry, policies });

function runtimeWith(audit: AuditConfig) {
  handlerCalls = 0;
  advanceInHandler = 0;
  return createAgentRuntime({ governance, audit, now: clock.now });
}

afterEach(() => {
  vi.restoreAllMocks();
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("audit events (core.md §11)", () => {
  it("a completed call emits requested, started, completed with the full envelope", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    const t0 = clock.now();
    const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: { ...dana, displayName: "Dana" }, context: {}, surface: "aiSdk", correlationId: "corr-7" });
    expect(result.status).toBe("completed");
    expect(audit.types()).toEqual(["capability.requested", "capability.started", "capability.completed"]);
    for (const event of audit.events) {
      expect(event.timestamp).toEqual(t0);
      expect(event.surface).toBe("aiSdk");
      expect(event.actor).toEqual({ id: "dana", kind: "user" });
      expect(event.executionId).toBe(result.executionId);
      expect(event.capabilityId).toBe("orders.get");
      expect(event.correlationId).toBe("corr-7");
    }
    expect(audit.events[0]!.data).toEqual({ sideEffect: "read", risk: "medium" });
    expect(audit.events[1]!.data).toEqual({ attempt: 1 });
    expect(audit.events[2]!.data).toEqual({ durationMs: 0, attempts: 1 });
  });

  it("the envelope has no correlationId key when none was given", async () => {
    const audit = collectingSink();
    await runtimeWith(audit.sink).invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    expect(audit.events.every((e) => !("correlationId" in e))).toBe(true);
  });

  it("timestamps and durationMs come from the injected now", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    advanceInHandler = 1_234;
    const t0 = clock.now();
    await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    expect(audit.events.map((e) => e.timestamp.getTime() - t0.getTime())).toEqual([0, 0, 1_234]);
    expect(audit.ofType("capability.completed")[0]!.data.durationMs).toBe(1_234);
  });

  it("durationMs is never negative when the injected clock goes backwards", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    advanceInHandler = -5_000;
    await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    expect(audit.ofType("capability.completed")[0]!.data.durationMs).toBe(0);
  });

  it("inputHash is the SHA-256 of the canonical JSON of the validated input", async () => {
    const audit = collectingSink();
    await runtimeWith(audit.sink).invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    const expected = sha256('{"id":"o1"}');
    expect(audit.events.map((e) => e.inputHash)).toEqual([undefined, expected, expected]);
  });

  it("inputHash is absent when the input is not hashable, and the call still completes", async () => {
    const audit = collectingSink();
    const result = await runtimeWith(audit.sink).invoke("orders.anything", { when: new Map([["a", 1]]) }, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(audit.events.length).toBeGreaterThan(0);
    expect(audit.events.every((e) => !("inputHash" in e))).toBe(true);
  });

  it("the input is hashed only when a sink consumes it, and at most once", async () => {
    let reads = 0;
    const input = {
      toJSON() {
        reads++;
        return { a: 1 };
      },
    };
    vi.spyOn(console, "warn").mockImplementation(() => {}); // W3: this runtime has no sink on purpose
    const silent = createAgentRuntime({ governance, now: clock.now });
    expect((await silent.invoke("orders.anything", input, { actor: dana, context: {} })).status).toBe("completed");
    // The policies' snapshot applies toJSON once (SI-6); no hash is taken without a sink.
    expect(reads).toBe(1);
    const audit = collectingSink();
    expect((await runtimeWith(audit.sink).invoke("orders.anything", input, { actor: dana, context: {} })).status).toBe("completed");
    // Once more for this invocation's snapshot; the hash is taken over the snapshot, so toJSON is not called again.
    expect(reads).toBe(2);
    expect(audit.ofType("capability.completed")[0]!.inputHash).toBe(sha256('{"a":1}'));
  });

  it("denied events carry the true reason, the public code and the policy decisions", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    await runtime.invoke("orders.nope", {}, { actor: dana, context: {} });
    await runtime.invoke("orders.hidden", {}, { actor: dana, context: {} });
    await runtime.invoke("orders.anything", {}, { actor: { id: "mallory", kind: "user" }, context: {} });
    await runtime.invoke("orders.anything", {}, { actor: { id: "eve", kind: "user" }, context: {} });
    await runtime.invoke("orders.anything", {}, { actor: { id: "zed", kind: "user" }, context: {} });
    expect(audit.ofType("capability.requested").map((e) => e.data)).toEqual([
      {},
      { sideEffect: "read", risk: "medium" },
      { sideEffect: "read", risk: "medium" },
      { sideEffect: "read", risk: "medium" },
      { sideEffect: "read", risk: "medium" },
    ]);
    const allowed = { policy: "read-ok", type: "allow", metadata: { checked: true } };
    expect(audit.ofType("capability.denied").map((e) => e.data)).toEqual([
      { reason: "unknown", publicCode: "CAPABILITY_NOT_FOUND" },
      { reason: "not-exposed", publicCode: "CAPABILITY_NOT_FOUND" },
      {
        reason: "policy-denied",
        publicCode: "POLICY_DENIED",
        policyDecisions: [allowed, { policy: "block-mallory", type: "deny" }, { policy: "explode-for-eve", type: "allow" }, { policy: "hide-from-zed", type: "allow" }],
      },
      {
        reason: "policy-failed",
        publicCode: "POLICY_FAILED",
        policyDecisions: [allowed, { policy: "block-mallory", type: "allow" }, { policy: "explode-for-eve", type: "error" }, { policy: "hide-from-zed", type: "allow" }],
      },
      {
        reason: "hidden",
        publicCode: "CAPABILITY_NOT_FOUND",
        policyDecisions: [allowed, { policy: "block-mallory", type: "allow" }, { policy: "explode-for-eve", type: "allow" }, { policy: "hide-from-zed", type: "hide" }],
      },
    ]);
    expect(audit.types().filter((t) => t === "capability.started" || t === "capability.failed")).toEqual([]);
    expect(handlerCalls).toBe(0);
  });

  it("failed events carry code, stage, retryable and attempts", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    await runtime.invoke("orders.get", { id: 7 }, { actor: dana, context: {} });
    await runtime.invoke("orders.get", { id: "o1" }, { actor: undefined as never, context: {} });
    await runtime.invoke("orders.throws", {}, { actor: dana, context: {} });
    expect(audit.ofType("capability.failed").map((e) => e.data)).toEqual([
      { code: "INPUT_INVALID", stage: "input-validation", retryable: false, attempts: 0 },
      { code: "UNAUTHENTICATED", stage: "authentication", retryable: false, attempts: 0 },
      { code: "EXECUTION_FAILED", stage: "execution", retryable: false, attempts: 1, effectStatus: "unknown" },
    ]);
  });

  it("a successful policy batch puts its decisions on capability.failed as well", async () => {
    const audit = collectingSink();
    const guarded = createCapabilityRegistry({
      bad: base
        .meta(agentMeta(meta({ policies: [definePolicy("fine", () => allow())] })))
        .handler(() => {
          throw new Error("boom");
        }),
    });
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry: guarded }), audit: audit.sink });
    await runtime.invoke("bad", undefined, { actor: dana, context: {} });
    expect(audit.ofType("capability.failed")[0]!.data.policyDecisions).toEqual([{ policy: "fine", type: "allow" }]);
  });

  it("cancelled events carry code and durationMs from the injected now", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    advanceInHandler = 500;
    await runtime.invoke("orders.slow", {}, { actor: dana, context: {} });
    expect(audit.ofType("capability.cancelled").map((e) => e.data)).toEqual([{ code: "TIMEOUT", durationMs: 500, effectStatus: "unknown" }]);
  });

  it("a malformed actor is recorded as { id, kind: anonymous }, never with its other fields", async () => {
    const audit = collectingSink();
    const runtime = runtimeWith(audit.sink);
    await runtime.invoke("orders.get", { id: "o1" }, { actor: { id: "x-1", kind: "robot", displayName: "R2" } as never, context: {} });
    await runtime.invoke("orders.get", { id: "o1" }, { actor: { id: 42, kind: "user" } as never, context: {} });
    await runtime.invoke("orders.get", { id: "o1" }, { actor: "dana" as never, context: {} });
    expect(audit.ofType("capability.failed").map((e) => e.actor)).toEqual([
      { id: "x-1", kind: "anonymous" },
      { id: "unknown", kind: "anonymous" },
      { id: "unknown", kind: "anonymous" },
    ]);
  });

  it("events are frozen and one object is shared by every sink", async () => {
    const first = collectingSink();
    const second = collectingSink();
    await runtimeWith([first.sink, second.sink]).invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    expect(first.events).toHaveLength(3);
    first.events.forEach((event, i) => {
      expect(second.events[i]).toBe(event);
      expect(Object.isFrozen(event)).toBe(true);
      expect(Object.isFrozen(event.data)).toBe(true);
    });
    expect(() => {
      (first.events[0] as { type: string }).type = "tampered";
    }).toThrow(TypeError);
  });

  it("sinks are called synchronously at emission, in order, per event", async () => {
    const log: string[] = [];
    const sinkA = (e: AgentAuditEvent) => void log.push(`A:${e.type}`);
    const sinkB = (e: AgentAuditEvent) => void log.push(`B:${e.type}`);
    const runtime = runtimeWith([sinkA, sinkB]);
    const pending = runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
    // requested is emitted synchronously, before invoke's first await.
    expect(log.slice(0, 2)).toEqual(["A:capability.requested", "B:capability.requested"]);
    await pending;
    expect(log).toEqual(["A:capability.requested", "B:capability.requested", "A:capability.started", "B:capability.started", "A:capability.completed", "B:capability.completed"]);
    log.length = 0;
    await runtime.invoke("orders.nope", {}, { actor: dana, context: {} });
    expect(log).toEqual(["A:capability.requested", "B:capability.requested", "A:capability.denied", "B:capability.denied"]);
  });

  describe("best-effort delivery", () => {
    it("a sink throwing synchronously or rejecting goes to onSinkError(err, event) and affects neither execution nor other sinks", async () => {
      const syncError = new Error("sync sink down");
      const asyncError = new Error("async sink down");
      const reports: [unknown, AgentAuditEvent][] = [];
      const healthy = collectingSink();
      const runtime = runtimeWith({
        sinks: [
          () => {
            throw syncError;
          },
          () => Promise.reject(asyncError),
          healthy.sink,
        ],
        onSinkError: (err, event) => void reports.push([err, event]),
      });
      const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
      expect(result).toMatchObject({ status: "completed", output: { id: "o1" } });
      expect(healthy.types()).toEqual(["capability.requested", "capability.started", "capability.completed"]);
      await flush();
      expect(reports.filter(([err]) => err === syncError).map(([, e]) => e)).toEqual(healthy.events);
      expect(reports.filter(([err]) => err === asyncError).map(([, e]) => e)).toEqual(healthy.events);
      expect(reports).toHaveLength(6);
      await expect(runtime.drainAudit()).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    });

    it("a throwing onSinkError is swallowed", async () => {
      const runtime = runtimeWith({
        sinks: [
          () => {
            throw new Error("sink down");
          },
          () => Promise.reject(new Error("sink down later")),
        ],
        onSinkError: () => {
          throw new Error("handler down too");
        },
      });
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
        expect(result.status).toBe("completed");
        await flush();
        await flush();
        expect(unhandled).toEqual([]);
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
      await expect(runtime.drainAudit()).rejects.toMatchObject({ code: "AUDIT_UNAVAILABLE" });
    });

    it("the default onSinkError logs with the [orpc-agent] prefix", async () => {
      const errorSpy = vi.spyOn(console, "error").mockImplementation(() => {});
      const runtime = runtimeWith(() => {
        throw new Error("sink down");
      });
      const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
      expect(result.status).toBe("completed");
      expect(errorSpy).toHaveBeenCalledTimes(3);
      for (const callArgs of errorSpy.mock.calls) expect(String(callArgs[0])).toMatch(/^\[orpc-agent\]/);
      await runtime.drainAudit().catch(() => {});
    });
  });

  describe("strict mode", () => {
    it("awaits the started write on every sink before calling the procedure", async () => {
      const gate = deferred();
      const sawStarted = deferred();
      const slowSink = (event: AgentAuditEvent) => {
        if (event.type !== "capability.started") return;
        sawStarted.resolve();
        return gate.promise;
      };
      const fast = collectingSink();
      const runtime = runtimeWith({ sinks: [fast.sink, slowSink], strict: true });
      const pending = runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
      await sawStarted.promise;
      await flush();
      expect(handlerCalls).toBe(0);
      expect(fast.types()).toEqual(["capability.requested", "capability.started"]);
      gate.resolve();
      expect(await pending).toMatchObject({ status: "completed" });
      expect(handlerCalls).toBe(1);
    });

    it.each([
      ["rejects", (error: Error) => Promise.reject(error)],
      [
        "throws synchronously",
        (error: Error) => {
          throw error;
        },
      ],
    ])("a sink that %s on started fails the call with AUDIT_UNAVAILABLE, no procedure call and no onSinkError for that write", async (_label, fail) => {
      const sinkError = new Error("audit store down");
      const reports: [unknown, AgentAuditEvent][] = [];
      const healthy = collectingSink();
      const runtime = runtimeWith({
        sinks: [healthy.sink, (event) => (event.type === "capability.started" ? fail(sinkError) : undefined)],
        strict: true,
        onSinkError: (err, event) => void reports.push([err, event]),
      });
      const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
      expect(result.status).toBe("failed");
      if (result.status !== "failed") return;
      expect(result.error).toBeInstanceOf(CapabilityError);
      expect(result.error).toMatchObject({ code: "AUDIT_UNAVAILABLE", retryable: true, exposeToModel: false });
      expect(result.error.cause).toBe(sinkError);
      expect(handlerCalls).toBe(0);
      await flush();
      expect(reports).toEqual([]);
      expect(healthy.types()).toEqual(["capability.requested", "capability.started", "capability.failed"]);
      expect(healthy.ofType("capability.failed")[0]!.data).toMatchObject({ code: "AUDIT_UNAVAILABLE", attempts: 0 });
      await expect(runtime.drainAudit()).resolves.toBeUndefined();
    });

    it("terminal and other events stay best-effort in strict mode", async () => {
      const sinkError = new Error("sink down");
      const reports: [unknown, AgentAuditEvent][] = [];
      const runtime = runtimeWith({
        sinks: [(event) => (event.type === "capability.started" ? undefined : Promise.reject(sinkError))],
        strict: true,
        onSinkError: (err, event) => void reports.push([err, event]),
      });
      const result = await runtime.invoke("orders.get", { id: "o1" }, { actor: dana, context: {} });
      expect(result).toMatchObject({ status: "completed", output: { id: "o1" } });
      expect(handlerCalls).toBe(1);
      await flush();
      expect(reports.map(([err, event]) => [err, event.type])).toEqual([
        [sinkError, "capability.requested"],
        [sinkError, "capability.completed"],
      ]);
      await runtime.drainAudit().catch(() => {});
    });
  });
});
