import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type AgentInvocationInfo,
  type AgentMeta,
  type CapabilityRegistry,
} from "../../src/index.js";
import { collectingSink, dana } from "./execution-harness.js";

const base = agentProcedure(os);
const retryable = () => new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });

/** A capability whose handler fails with `failures[i]` on call i and succeeds afterwards; it records each ctx.agent. */
function scripted(meta: Omit<AgentMeta, "description" | "expose"> & Partial<Pick<AgentMeta, "expose">>, failures: (() => unknown)[]) {
  const seen: AgentInvocationInfo[] = [];
  const procedure = base
    .input(z.object({ id: z.string() }))
    .meta(agentMeta({ description: "Scripted capability.", expose: { direct: true, aiSdk: true }, ...meta }))
    .handler(({ input, context }) => {
      seen.push(context.agent!);
      const failure = failures[seen.length - 1];
      if (failure) throw failure();
      return { id: input.id, attempt: seen.length };
    });
  return { procedure, seen };
}

function runtimeFor(registry: CapabilityRegistry) {
  const audit = collectingSink();
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: audit.sink });
  return { runtime, audit };
}

describe("stage 11 retry (SI-11)", () => {
  it.each(["write", "destructive", "external"] as const)("SI-11: a %s capability with retry but without idempotent fails the registry build", (sideEffect) => {
    const procedure = base
      .meta(agentMeta({ description: "Charge.", expose: { direct: true }, sideEffect, risk: "high", retry: { maxAttempts: 1 } }))
      .handler(() => "ok");
    let caught: unknown;
    try {
      createCapabilityRegistry({ pay: { charge: procedure } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    const problems = (caught as { problems: readonly string[] }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("pay.charge");
    expect(problems[0]).toMatch(/idempotent/);
  });

  it("SI-11: a write with retry and idempotent: true, or with maxAttempts 0, builds", () => {
    const idempotent = base
      .meta(agentMeta({ description: "Charge.", expose: { direct: true }, sideEffect: "write", risk: "high", idempotent: true, retry: { maxAttempts: 2 } }))
      .handler(() => "ok");
    const noRetry = base
      .meta(agentMeta({ description: "Charge.", expose: { direct: true }, sideEffect: "write", risk: "high", retry: { maxAttempts: 0 } }))
      .handler(() => "ok");
    expect(createCapabilityRegistry({ idempotent, noRetry }).ids()).toEqual(["idempotent", "noRetry"]);
  });

  it("SI-11: a write without retry is never retried, even for a retryable error", async () => {
    const cap = scripted({ sideEffect: "write", risk: "high" }, [retryable]);
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ charge: cap.procedure }));
    const result = await runtime.invoke("charge", { id: "c1" }, { actor: dana, context: {} });
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(cap.seen).toHaveLength(1);
    expect(audit.ofType("capability.retried")).toHaveLength(0);
    expect(audit.ofType("capability.failed")[0]!.data.attempts).toBe(1);
  });

  it("SI-11: an idempotent write with retry is retried", async () => {
    const cap = scripted({ sideEffect: "write", risk: "high", idempotent: true, retry: { maxAttempts: 2, backoffMs: 1 } }, [retryable]);
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ charge: cap.procedure }));
    const result = await runtime.invoke("charge", { id: "c1" }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { id: "c1", attempt: 2 } });
    expect(cap.seen).toHaveLength(2);
    expect(audit.ofType("capability.retried").map((e) => e.data)).toEqual([{ attempt: 2, previousErrorCode: "EXECUTION_FAILED" }]);
    expect(audit.ofType("capability.completed")[0]!.data.attempts).toBe(2);
  });

  it("SI-11: a timed-out non-idempotent write is not retried", async () => {
    let calls = 0;
    const procedure = base
      .meta(agentMeta({ description: "Slow write.", expose: { direct: true }, sideEffect: "write", risk: "high", timeoutMs: 15 }))
      .handler(({ signal }) => {
        calls++;
        return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
      });
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ slow: procedure }));
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status).toBe("cancelled");
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
    expect(calls).toBe(1);
    expect(audit.ofType("capability.retried")).toHaveLength(0);
  });

  it("SI-11: the runtime itself refuses to retry a non-idempotent write whose meta carries a retry config", async () => {
    // The registry build forbids this meta; a hand-built registry smuggles it in to check the runtime's own guard.
    let calls = 0;
    const procedure = base
      .meta(agentMeta({ description: "Slow write.", expose: { direct: true }, sideEffect: "write", risk: "high", timeoutMs: 15 }))
      .handler(({ signal }) => {
        calls++;
        return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
      });
    const real = createCapabilityRegistry({ slow: procedure });
    const original = real.get("slow")!;
    const smuggled = { ...original, meta: { ...original.meta, retry: { maxAttempts: 3, backoffMs: 1 } } };
    const registry: CapabilityRegistry = {
      ...real,
      ids: () => ["slow"],
      get: (id) => (id === "slow" ? smuggled : undefined),
      capabilities: () => [smuggled],
    };
    const { runtime, audit } = runtimeFor(registry);
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status === "cancelled" && result.error.code).toBe("TIMEOUT");
    expect(calls).toBe(1);
    expect(audit.ofType("capability.retried")).toHaveLength(0);
  });

  it("SI-11: read retries keep executionId and idempotencyKey, emit capability.retried and stop at maxAttempts (1 + maxAttempts calls)", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 2, backoffMs: 1 } }, [retryable, retryable, retryable, retryable]);
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {}, idempotencyKey: "key-42" });
    expect(result.status).toBe("failed");
    expect(cap.seen).toHaveLength(3);
    expect(new Set(cap.seen.map((a) => a.executionId))).toEqual(new Set([result.executionId]));
    expect(cap.seen.map((a) => a.idempotencyKey)).toEqual(["key-42", "key-42", "key-42"]);
    expect(audit.ofType("capability.retried").map((e) => e.data)).toEqual([
      { attempt: 2, previousErrorCode: "EXECUTION_FAILED" },
      { attempt: 3, previousErrorCode: "EXECUTION_FAILED" },
    ]);
    expect(audit.ofType("capability.retried").every((e) => e.executionId === result.executionId)).toBe(true);
    expect(audit.ofType("capability.failed")[0]!.data).toMatchObject({ code: "EXECUTION_FAILED", attempts: 3 });
  });

  it("SI-11: a minted idempotencyKey is stable across attempts", async () => {
    const cap = scripted({ sideEffect: "none", risk: "low", retry: { maxAttempts: 1, backoffMs: 1 } }, [retryable]);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toHaveLength(2);
    expect(cap.seen[0]!.idempotencyKey).toMatch(/^idk_/);
    expect(cap.seen[1]!.idempotencyKey).toBe(cap.seen[0]!.idempotencyKey);
  });

  it("SI-11: capability.started is emitted once across retries, before the first attempt", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 2, backoffMs: 1 } }, [retryable, retryable]);
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(audit.types()).toEqual([
      "capability.requested",
      "capability.started",
      "capability.retried",
      "capability.retried",
      "capability.completed",
    ]);
    expect(audit.ofType("capability.started")[0]!.data).toEqual({ attempt: 1 });
  });

  it("SI-11: retryOn returning false vetoes a retry, and it sees the CapabilityError", async () => {
    const seenByRetryOn: unknown[] = [];
    const cap = scripted(
      { sideEffect: "read", risk: "low", retry: { maxAttempts: 3, backoffMs: 1, retryOn: (e) => (seenByRetryOn.push(e), false) } },
      [retryable],
    );
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(cap.seen).toHaveLength(1);
    expect(seenByRetryOn).toHaveLength(1);
    expect(seenByRetryOn[0]).toBeInstanceOf(CapabilityError);
    expect(audit.ofType("capability.retried")).toHaveLength(0);
  });

  it("SI-11: retryOn returning true lets an otherwise eligible retry proceed", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 3, backoffMs: 1, retryOn: () => true } }, [retryable]);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(cap.seen).toHaveLength(2);
  });

  it("SI-11: a throwing retryOn vetoes the retry instead of failing the call differently", async () => {
    const cap = scripted(
      {
        sideEffect: "read",
        risk: "low",
        retry: {
          maxAttempts: 3,
          backoffMs: 1,
          retryOn: () => {
            throw new Error("retryOn broke");
          },
        },
      },
      [retryable],
    );
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(cap.seen).toHaveLength(1);
  });

  it("SI-11: a non-retryable error is not retried even on a read with retry", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 3, backoffMs: 1 } }, [() => new Error("plain failure")]);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(cap.seen).toHaveLength(1);
  });

  it("SI-11: a handler throwing CapabilityError EXECUTION_FAILED with retryable: true is retried for reads", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 1, backoffMs: 1 } }, [retryable]);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { attempt: 2 } });
  });

  it("SI-11: OUTPUT_INVALID from the output schema is never retried", async () => {
    let calls = 0;
    const procedure = base
      .output(z.object({ total: z.number() }))
      .meta(agentMeta({ description: "Bad output.", expose: { direct: true }, sideEffect: "read", risk: "low", retry: { maxAttempts: 3, backoffMs: 1 } }))
      .handler(() => {
        calls++;
        return { total: "not a number" } as never;
      });
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ report: procedure }));
    const result = await runtime.invoke("report", undefined, { actor: dana, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("OUTPUT_INVALID");
    expect(calls).toBe(1);
    expect(audit.ofType("capability.retried")).toHaveLength(0);
  });

  it("SI-11: OUTPUT_INVALID is never retried even when a CapabilityError claims it is retryable", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 3, backoffMs: 1 } }, [
      () => new CapabilityError({ code: "OUTPUT_INVALID", retryable: true }),
    ]);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status === "failed" && result.error.code).toBe("OUTPUT_INVALID");
    expect(cap.seen).toHaveLength(1);
  });

  it("SI-11: CANCELLED is never retried even when a CapabilityError claims it is retryable", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low", retry: { maxAttempts: 3, backoffMs: 1 } }, [
      () => new CapabilityError({ code: "CANCELLED", retryable: true }),
    ]);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect(cap.seen).toHaveLength(1);
  });

  it("SI-11: a timed-out read with retry is retried with previousErrorCode TIMEOUT", async () => {
    let calls = 0;
    const procedure = base
      .meta(agentMeta({ description: "Slow read.", expose: { direct: true }, sideEffect: "read", risk: "low", timeoutMs: 15, retry: { maxAttempts: 1, backoffMs: 1 } }))
      .handler(({ signal }) => {
        calls++;
        if (calls > 1) return "second";
        return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
      });
    const { runtime, audit } = runtimeFor(createCapabilityRegistry({ slow: procedure }));
    const result = await runtime.invoke("slow", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: "second" });
    expect(audit.ofType("capability.retried").map((e) => e.data)).toEqual([{ attempt: 2, previousErrorCode: "TIMEOUT" }]);
  });

  it("SI-11: a model re-invocation is a new execution with a new executionId and idempotencyKey", async () => {
    const cap = scripted({ sideEffect: "read", risk: "low" }, []);
    const { runtime } = runtimeFor(createCapabilityRegistry({ lookup: cap.procedure }));
    const first = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {}, surface: "aiSdk" });
    const second = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {}, surface: "aiSdk" });
    expect(first.executionId).toMatch(/^exe_/);
    expect(second.executionId).toMatch(/^exe_/);
    expect(second.executionId).not.toBe(first.executionId);
    expect(cap.seen.map((a) => a.executionId)).toEqual([first.executionId, second.executionId]);
    expect(cap.seen[1]!.idempotencyKey).not.toBe(cap.seen[0]!.idempotencyKey);
  });
});
