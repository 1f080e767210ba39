import { createAgentRuntime, createInMemoryApprovalCoordinator, type AgentAuditEvent, type TracingAdapter } from "@orpc-agent/core";
import { createGovernance, priya } from "./registry.js";

/** A real core runtime over the fixture governance, with an explicit coordinator and a capturing audit sink. */
export function createTracedRuntime(tracing: TracingAdapter | undefined) {
  const audit: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime({
    governance: createGovernance(),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void audit.push(event),
    ...(tracing ? { tracing } : {}),
  });
  return { runtime, audit };
}

/** Invokes orders.refund, approves it as another user and returns the approval id (the resume is left to the test). */
export async function requestAndApproveRefund(runtime: ReturnType<typeof createTracedRuntime>["runtime"], actor: Parameters<typeof runtime.invoke>[2]["actor"], note: string) {
  const pending = await runtime.invoke("orders.refund", { id: "o1", amount: 25, note }, { actor, context: {} });
  if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
  await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
  return pending;
}
