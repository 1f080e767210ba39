import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  deny,
  type AgentAuditEvent,
  type AgentMeta,
  type ExecutionResult,
} from "../../src/index.js";
import { collectingSink, dana } from "./execution-harness.js";

const base = agentProcedure(os);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "A capability.", expose: { direct: true }, sideEffect: "write", risk: "medium", ...extra });

let calls = 0;
const registry = createCapabilityRegistry({
  slow: base.meta(agentMeta(meta({ timeoutMs: 10 }))).handler(({ signal }) => {
    calls++;
    return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
  }),
  throws: base.meta(agentMeta(meta())).handler(() => {
    calls++;
    throw new Error("boom");
  }),
  badOutput: base
    .output(z.object({ total: z.number() }))
    .meta(agentMeta(meta()))
    .handler(() => {
      calls++;
      return { total: "NaN" } as never;
    }),
  badRedaction: base
    .meta(agentMeta(meta({
        redact: {
          output: () => {
            throw new Error("redaction bug");
          },
        },
      })))
    .handler(() => {
      calls++;
      return { ok: true };
    }),
  typed: base
    .input(z.object({ amount: z.number() }))
    .meta(agentMeta(meta()))
    .handler(() => {
      calls++;
      return "ok";
    }),
  guarded: base
    .meta(agentMeta(meta({ policies: [definePolicy("never", () => deny("nope"))] })))
    .handler(() => {
      calls++;
      return "ok";
    }),
});

function run(id: string, input: unknown, options: { strict?: boolean; failingSink?: boolean; actor?: unknown; signal?: AbortSignal } = {}) {
  const audit = collectingSink();
  const sinks = [audit.sink];
  if (options.failingSink) {
    sinks.push((event: AgentAuditEvent) => {
      if (event.type === "capability.started") return Promise.reject(new Error("sink down"));
    });
  }
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    audit: { sinks, strict: options.strict === true, onSinkError: () => {} },
  });
  calls = 0;
  const actor = "actor" in options ? options.actor : dana;
  return runtime.invoke(id, input, { actor: actor as never, context: {}, signal: options.signal }).then((result) => ({ result, audit }));
}

const terminalData = (events: AgentAuditEvent[]): Record<string, unknown> => {
  const terminal = events.find((e) => e.type === "capability.failed" || e.type === "capability.cancelled" || e.type === "capability.denied");
  if (!terminal) throw new Error("no terminal failure event");
  return terminal.data as Record<string, unknown>;
};

const effectStatusOf = (result: ExecutionResult) => (result.status === "failed" || result.status === "cancelled" ? result.effectStatus : "n/a");

describe("effectStatus and executedBeforeFailure (core.md §6.1)", () => {
  it("a timeout after the attempt began is cancelled with effectStatus unknown on envelope and event", async () => {
    const { result, audit } = await run("slow", undefined);
    expect(result.status).toBe("cancelled");
    expect(effectStatusOf(result)).toBe("unknown");
    expect(terminalData(audit.events)).toMatchObject({ code: "TIMEOUT", effectStatus: "unknown" });
    expect(terminalData(audit.events).executedBeforeFailure).toBeUndefined();
  });

  it("a handler throw gives failed with effectStatus unknown, without executedBeforeFailure", async () => {
    const { result, audit } = await run("throws", undefined);
    expect(result.status === "failed" && result.error.code).toBe("EXECUTION_FAILED");
    expect(effectStatusOf(result)).toBe("unknown");
    const data = terminalData(audit.events);
    expect(data).toMatchObject({ code: "EXECUTION_FAILED", stage: "execution", attempts: 1, effectStatus: "unknown" });
    expect("executedBeforeFailure" in data).toBe(false);
  });

  it("OUTPUT_INVALID gives effectStatus unknown and executedBeforeFailure: true", async () => {
    const { result, audit } = await run("badOutput", undefined);
    expect(result.status === "failed" && result.error.code).toBe("OUTPUT_INVALID");
    expect(result.status === "failed" && result.error.stage).toBe("output-validation");
    expect(effectStatusOf(result)).toBe("unknown");
    expect(terminalData(audit.events)).toMatchObject({ code: "OUTPUT_INVALID", executedBeforeFailure: true, effectStatus: "unknown", attempts: 1 });
    // The invalid output is withheld.
    expect(JSON.stringify(result)).not.toContain("NaN");
  });

  it("a throwing redaction gives a concealed EXECUTION_FAILED with effectStatus unknown and executedBeforeFailure: true", async () => {
    const { result, audit } = await run("badRedaction", undefined);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: false, retryable: false });
    expect(result.effectStatus).toBe("unknown");
    expect(calls).toBe(1);
    expect(terminalData(audit.events)).toMatchObject({ code: "EXECUTION_FAILED", executedBeforeFailure: true, effectStatus: "unknown" });
    expect("output" in result).toBe(false);
  });

  it("INPUT_INVALID (stage 5) carries no effectStatus", async () => {
    const { result, audit } = await run("typed", { amount: "ten" });
    expect(result.status === "failed" && result.error.code).toBe("INPUT_INVALID");
    expect("effectStatus" in result).toBe(false);
    const data = terminalData(audit.events);
    expect(data).toMatchObject({ code: "INPUT_INVALID", attempts: 0 });
    expect("effectStatus" in data).toBe(false);
    expect("executedBeforeFailure" in data).toBe(false);
    expect(calls).toBe(0);
  });

  it("UNAUTHENTICATED (stage 6) carries no effectStatus", async () => {
    const { result, audit } = await run("throws", undefined, { actor: undefined });
    expect(result.status === "failed" && result.error.code).toBe("UNAUTHENTICATED");
    expect("effectStatus" in result).toBe(false);
    expect("effectStatus" in terminalData(audit.events)).toBe(false);
  });

  it("POLICY_DENIED (stage 7) carries no effectStatus", async () => {
    const { result, audit } = await run("guarded", undefined);
    expect(result.status === "failed" && result.error.code).toBe("POLICY_DENIED");
    expect("effectStatus" in result).toBe(false);
    expect("effectStatus" in terminalData(audit.events)).toBe(false);
    expect(calls).toBe(0);
  });

  it("a strict audit failure at stage 10 carries no effectStatus", async () => {
    const { result, audit } = await run("throws", undefined, { strict: true, failingSink: true });
    expect(result.status === "failed" && result.error.code).toBe("AUDIT_UNAVAILABLE");
    expect("effectStatus" in result).toBe(false);
    expect(terminalData(audit.events)).toMatchObject({ code: "AUDIT_UNAVAILABLE", attempts: 0 });
    expect("effectStatus" in terminalData(audit.events)).toBe(false);
    expect(calls).toBe(0);
  });

  it("a pre-aborted signal (stage 10) is cancelled without effectStatus", async () => {
    const controller = new AbortController();
    controller.abort();
    const { result, audit } = await run("throws", undefined, { signal: controller.signal });
    expect(result.status === "cancelled" && result.error.code).toBe("CANCELLED");
    expect("effectStatus" in result).toBe(false);
    expect("effectStatus" in terminalData(audit.events)).toBe(false);
  });

  it("a completed envelope has no effectStatus", async () => {
    const { result } = await run("typed", { amount: 3 });
    expect(result).toEqual({ status: "completed", executionId: result.executionId, output: "ok" });
  });
});
