import type { Actor } from "../../vocabulary/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import { capabilityNotFound } from "../../errors/concealed.js";
import type { DeniedReason } from "../../audit/types.js";
import { evaluatePolicyBatch, type PolicyBatchResult } from "../../policy/evaluate-batch.js";
import { evaluateWithShadows, type ShadowDivergence, type ShadowedBatch } from "../../policy/evaluate-shadows.js";
import { policyScopeAdmitsActor } from "../../policy/scope.js";
import { isPromiseLike } from "../../internal/promise.js";
import type { ApprovalRecord } from "../../approvals/types.js";
import type { AgentPolicy, PolicyPhase, PolicyRequest } from "../../capability/types.js";
import type { SpanHandle } from "../../tracing/types.js";
import type { Execution } from "../execution.js";
import { emit, recordPolicyDecisions } from "../execution.js";

export type PolicyRefusal = { error: CapabilityError; reason: DeniedReason };

/**
 * Stages 7, 9 and resume R10: one batch with its own span. Returns the enforced batch, already recorded on the
 * execution; shadow policies of the same batch are evaluated after it, never waited for, and only leave
 * `capability.shadow_diverged` events. Callers skip this entirely when no policy applies (docs/architecture/spec/core.md#core-16).
 */
export function runPolicyBatch(
  exec: Execution,
  phase: PolicyPhase,
  policies: readonly AgentPolicy[],
  init: { actor: Actor; context: unknown; input: unknown; approval?: ApprovalRecord },
  shadowPolicies: readonly AgentPolicy[] = NO_POLICIES,
): PolicyBatchResult | Promise<PolicyBatchResult> {
  const plan = exec.plan!;
  const enforced = plan.agentScoped ? forActingAgent(policies, init.actor) : policies;
  const shadows = plan.agentScoped ? forActingAgent(shadowPolicies, init.actor) : shadowPolicies;
  // A policy scoped to other agents is scoped out: not called, no deadline, no record, no span (docs/architecture/spec/core.md#core-3).
  if (enforced.length === 0 && shadows.length === 0) return { verdict: "allow", records: [], approvals: [] };
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
  if (shadows.length === 0) {
    // No shadows: the enforced batch alone, with no wrapper or closure on the synchronous path (issue 28).
    const batch = evaluatePolicyBatch(enforced, request, exec.rt.defaults.policyTimeoutMs);
    return isPromiseLike(batch) ? batch.then((b) => settleBatch(exec, b, span)) : settleBatch(exec, batch, span);
  }
  const result = evaluateWithShadows(enforced, shadows, request, exec.rt.defaults.policyTimeoutMs);
  const settle = (shadowed: ShadowedBatch) => settleShadowedBatch(exec, phase, shadowed, span);
  return isPromiseLike(result) ? result.then(settle) : settle(result);
}

/**
 * The enforced batch goes on at once; its shadows' divergences are recorded now when they are known, else when the
 * shadows answer or time out, with the batch's span ended then. The runtime's drain waits for those (SI-7).
 */
function settleShadowedBatch(exec: Execution, phase: PolicyPhase, { batch, divergences }: ShadowedBatch, span: SpanHandle | undefined): PolicyBatchResult {
  recordPolicyDecisions(exec, batch.records);
  const record = (found: readonly ShadowDivergence[]) => {
    for (const divergence of found) {
      emit(exec, "capability.shadow_diverged", () => ({ policy: divergence.policy, phase, decision: divergence.decision, enforced: batch.verdict }));
    }
    span?.setAttributes({ "orpc_agent.shadow_divergences": found.length });
    span?.end(batch.verdict === "error" ? "error" : "ok");
  };
  if (isPromiseLike(divergences)) exec.rt.audit.track(divergences.then(record));
  else record(divergences);
  return batch;
}

function settleBatch(exec: Execution, batch: PolicyBatchResult, span: SpanHandle | undefined): PolicyBatchResult {
  recordPolicyDecisions(exec, batch.records);
  span?.end(batch.verdict === "error" ? "error" : "ok");
  return batch;
}

const NO_POLICIES: readonly AgentPolicy[] = Object.freeze([]);

/** The policies whose `scope.via` admits this request's acting agent (checked per call; the rest of the scope is static). */
export function forActingAgent(policies: readonly AgentPolicy[], actor: Actor): readonly AgentPolicy[] {
  return policies.some((p) => p.scope?.via !== undefined) ? policies.filter((p) => policyScopeAdmitsActor(p.scope, actor)) : policies;
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
