// Cost of sealed approvals (ADR-027) per approval round trip: invoke until approval-required, decide through the
// runtime, resume to completion, on the in-memory coordinator with and without `approvals.seal`. Reported, not
// budgeted: sealing adds a request seal, a decision seal and their verification (HMAC-SHA256 over Web Crypto).
import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance } from "@orpc-agent/core";
import { interleave, timeSequential } from "./harness.js";

export type SealBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number; extraNs: number };

const gated = agentProcedure(os)
  .input(z.object({ amount: z.number() }))
  .meta({ agent: { description: "Pay.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } } })
  .handler(({ input }) => input.amount);

export async function approvalSealCost(options: { rounds: number; trips: number }): Promise<SealBenchRow> {
  const governance = defineGovernance({ registry: createCapabilityRegistry({ gated }) });
  const seal = { keys: [{ id: "bench", secret: "a-bench-only-secret-of-at-least-32-bytes" }] };
  const runtimes = {
    plain: createAgentRuntime({ governance, approvals: { coordinator: createInMemoryApprovalCoordinator() }, audit: () => {} }),
    sealed: createAgentRuntime({ governance, approvals: { coordinator: createInMemoryApprovalCoordinator(), seal }, audit: () => {} }),
  };
  const requester = { id: "dana", kind: "user" as const };
  const approver = { id: "mo", kind: "user" as const };
  const trip = async (runtime: (typeof runtimes)["plain"]) => {
    const asked = await runtime.invoke("gated", { amount: 5 }, { actor: requester, context: {} });
    if (asked.status !== "approval-required") throw new Error(`bench: expected approval-required, got ${asked.status}`);
    await runtime.approvals.decide(asked.approval.id, { status: "approved", approver });
    const done = await runtime.resume(asked.approval.id, { context: {} });
    if (done.status !== "completed") throw new Error(`bench: expected completed, got ${done.status}`);
  };
  const m = await interleave(
    {
      plain: () => timeSequential(() => trip(runtimes.plain), options.trips),
      sealed: () => timeSequential(() => trip(runtimes.sealed), options.trips),
    },
    options.rounds,
  );
  return {
    path: "approval round trip (invoke → decide → resume), approvals.seal",
    subjectNs: m.sealed!,
    baselineNs: m.plain!,
    ratio: m.sealed! / m.plain!,
    extraNs: m.sealed! - m.plain!,
  };
}
