import type { Actor } from "../../capability/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { capabilityNotFound } from "../../errors/concealed.js";
import type { DeniedReason } from "../../audit/types.js";
import { evaluatePolicyBatch, type PolicyBatchResult } from "../../policy/evaluate-batch.js";
import type { ApprovalRecord } from "../../approvals/types.js";
import type { AgentPolicy, PolicyPhase, PolicyRequest } from "../../policy/types.js";
import type { Execution } from "../execution.js";
import { recordPolicyDecisions } from "../execution.js";

export type PolicyRefusal = { error: CapabilityError; reason: DeniedReason };

/**
 * Stages 7, 9 and resume R10: one batch with its own span. Returns the batch, already recorded on the execution.
 * Callers skip this entirely when no policy applies (core.md §16).
 */
export function runPolicyBatch(
  exec: Execution,
  phase: PolicyPhase,
  policies: readonly AgentPolicy[],
  init: { actor: Actor; context: unknown; input: unknown; approval?: ApprovalRecord },
): PolicyBatchResult | Promise<PolicyBatchResult> {
  const plan = exec.plan!;
  const request: PolicyRequest = {
    phase,
    capability: { id: plan.id, meta: plan.meta },
    surface: exec.surface,
    actor: init.actor,
    context: init.context,
    input: init.input,
  };
  if (init.approval !== undefined) request.approval = init.approval;
  const span = exec.rt.tracing?.startSpan(
    "agent.policy_evaluation",
    { "orpc_agent.capability_id": plan.id, "orpc_agent.surface": exec.surface },
    exec.span,
  );
  const result = evaluatePolicyBatch(policies, request, exec.rt.defaults.policyTimeoutMs);
  const settle = (batch: PolicyBatchResult) => {
    recordPolicyDecisions(exec, batch.records);
    span?.end(batch.verdict === "error" ? "error" : "ok");
    return batch;
  };
  return result instanceof Promise ? result.then(settle) : settle(result);
}

/** Maps a refusing verdict to the public error and the true audit reason; `undefined` lets the call proceed. */
export function policyRefusal(batch: PolicyBatchResult): PolicyRefusal | undefined {
  switch (batch.verdict) {
    case "error":
      return { error: new CapabilityError({ code: "POLICY_FAILED" }), reason: "policy-failed" };
    case "deny": {
      const deny = batch.deny!;
      const details: { policy: string; code?: string } = { policy: deny.policy };
      if (deny.code !== undefined) details.code = deny.code;
      return {
        error: new CapabilityError({ code: "POLICY_DENIED", details, ...(deny.message !== undefined ? { publicMessage: deny.message } : {}) }),
        reason: "policy-denied",
      };
    }
    case "hide":
      // Outside discovery a hide is a concealing deny: same shape as an unknown id (SI-8).
      return { error: capabilityNotFound(), reason: "hidden" };
    default:
      return undefined;
  }
}
