// Progress (issue 46): any capability reports `{ progress, total?, message? }` through `context.agent.reportProgress`;
// a direct caller that passes `onProgress` receives the updates, validated and throttled. The attacks (floods,
// isolation, updates after the result) are in tests/adversarial/si-3-progress-isolation.test.ts.
import { eventIterator, os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentInvocationInfo,
  type AgentMeta,
  type CapabilityDefs,
  type ProgressUpdate,
  type RuntimeDefaults,
} from "../../src/index.js";
import { dana, deferred, priya } from "./execution-harness.js";

const base = agentProcedure(os);
type Ctx = { agent: AgentInvocationInfo };

function meta(extra: Partial<AgentMeta> = {}): AgentMeta {
  return { description: "A long job.", expose: { direct: true }, sideEffect: "read", risk: "low", ...extra };
}

function build(defs: CapabilityDefs, defaults?: RuntimeDefaults) {
  return createAgentRuntime({
    governance: defineGovernance({ registry: createCapabilityRegistry(defs) }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    ...(defaults === undefined ? {} : { defaults }),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("progress: reportProgress and onProgress", () => {
  it("reportProgress is always there: without onProgress it is one shared function that does nothing", async () => {
    const seen: AgentInvocationInfo["reportProgress"][] = [];
    const job = base.meta(agentMeta(meta())).handler(({ context }) => {
      const { agent } = context as Ctx;
      seen.push(agent.reportProgress);
      agent.reportProgress({ progress: 1 });
      return "ok";
    });
    const runtime = build({ job });
    await runtime.invoke("job", undefined, { actor: dana, context: {} });
    await runtime.invoke("job", undefined, { actor: dana, context: {} });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(typeof seen[0]).toBe("function");
  });

  it("the first update goes out at once; updates within the interval keep only the latest, delivered when it ends", async () => {
    const job = base.meta(agentMeta(meta())).handler(async ({ context }) => {
      const { agent } = context as Ctx;
      agent.reportProgress({ progress: 1, total: 4, message: "one" });
      agent.reportProgress({ progress: 2, total: 4, message: "two" });
      agent.reportProgress({ progress: 3, total: 4, message: "three" });
      await sleep(60);
      agent.reportProgress({ progress: 4, total: 4, message: "four" });
      return "ok";
    });
    const runtime = build({ job }, { progressIntervalMs: 20 });
    const seen: ProgressUpdate[] = [];
    const result = await runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void seen.push(u) });
    expect(result.status).toBe("completed");
    expect(seen.map((u) => u.message)).toEqual(["one", "three", "four"]);
    expect(seen[2]).toEqual({ progress: 4, total: 4, message: "four" });
  });

  it("the update kept in a window is flushed before the result, and nothing comes after", async () => {
    const job = base.meta(agentMeta(meta())).handler(({ context }) => {
      const { agent } = context as Ctx;
      agent.reportProgress({ progress: 10 });
      agent.reportProgress({ progress: 20 });
      return "ok";
    });
    const runtime = build({ job }, { progressIntervalMs: 60_000 });
    const order: string[] = [];
    const pending = runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void order.push(`progress ${u.progress}`) });
    await pending.then(() => order.push("result"));
    await sleep(5);
    expect(order).toEqual(["progress 10", "progress 20", "result"]);
  });

  it("progress must increase: equal or lower values are dropped (the MCP rule), also across retries", async () => {
    let attempt = 0;
    const job = base.meta(agentMeta(meta({ retry: { maxAttempts: 1, backoffMs: 1 } }))).handler(({ context }) => {
      const { agent } = context as Ctx;
      attempt++;
      agent.reportProgress({ progress: 5 });
      agent.reportProgress({ progress: 5 });
      agent.reportProgress({ progress: 3 });
      if (attempt === 1) throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true });
      agent.reportProgress({ progress: 6 });
      return "ok";
    });
    const runtime = build({ job }, { progressIntervalMs: 1 });
    const seen: number[] = [];
    await runtime.invoke("job", undefined, { actor: dana, context: {}, onProgress: (u) => void seen.push(u.progress) });
    expect(attempt).toBe(2);
    expect(seen).toEqual([5, 6]);
  });

  it("a streaming capability reports progress beside its events", async () => {
    const feed = base
      .output(eventIterator(z.object({ row: z.number() })))
      .meta(agentMeta(meta()))
      .handler(async function* ({ context }) {
        const { agent } = context as Ctx;
        for (let row = 1; row <= 3; row++) {
          agent.reportProgress({ progress: row, total: 3 });
          yield { row };
          await sleep(5);
        }
      });
    const runtime = build({ feed }, { progressIntervalMs: 1 });
    const log: string[] = [];
    const result = await runtime.invoke("feed", undefined, {
      actor: dana,
      context: {},
      onProgress: (u) => void log.push(`p${u.progress}`),
      onEvent: (e) => void log.push(`e${(e as { row: number }).row}`),
    });
    expect(result).toMatchObject({ status: "completed", eventCount: 3 });
    expect(log).toEqual(["p1", "e1", "p2", "e2", "p3", "e3"]);
  });

  it("resume's onProgress receives the resumed execution's progress", async () => {
    const job = base
      .input(z.object({ id: z.string() }))
      .meta(agentMeta(meta({ sideEffect: "write", risk: "high", approval: { required: true } })))
      .handler(({ context }) => {
        (context as Ctx).agent.reportProgress({ progress: 1, message: "resumed" });
        return "ok";
      });
    const runtime = build({ job });
    const first = await runtime.invoke("job", { id: "j" }, { actor: dana, context: {}, onProgress: () => expect.unreachable() });
    if (first.status !== "approval-required") throw new Error(first.status);
    await runtime.approvals.decide(first.approval.id, { status: "approved", approver: priya });
    const seen: ProgressUpdate[] = [];
    await runtime.resume(first.approval.id, { context: {}, onProgress: (u) => void seen.push(u) });
    expect(seen).toEqual([{ progress: 1, message: "resumed" }]);
  });

  it("an onProgress whose promise never settles does not hold the call", async () => {
    const gate = deferred();
    const job = base.meta(agentMeta(meta())).handler(async ({ context }) => {
      (context as Ctx).agent.reportProgress({ progress: 1 });
      return "ok";
    });
    const runtime = build({ job });
    const result = await runtime.invoke("job", undefined, {
      actor: dana,
      context: {},
      // An async callback that never settles: its promise is not awaited.
      onProgress: () => gate.promise as never,
    });
    expect(result.status).toBe("completed");
  });
});
