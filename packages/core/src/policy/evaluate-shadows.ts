import { isPromiseLike, monotonicNow } from "../internal/promise.js";
import { evaluatePolicyBatch, type PolicyBatchResult } from "./evaluate-batch.js";
import type { AgentPolicy, PolicyDecisionRecord, PolicyRequest } from "../capability/types.js";

/** A shadow policy whose stance differed from the enforced verdict of its batch. */
export type ShadowDivergence = { policy: string; decision: PolicyDecisionRecord["type"] };

/**
 * An enforced batch and what its shadow policies would have decided differently: known at once when every shadow
 * answered synchronously, else still settling. The caller never waits for it (a shadow never delays an answer).
 */
export type ShadowedBatch = { batch: PolicyBatchResult; divergences: readonly ShadowDivergence[] | Promise<readonly ShadowDivergence[]> };

const NONE: readonly ShadowDivergence[] = Object.freeze([]);

/**
 * One batch: the enforced policies exactly as `evaluatePolicyBatch` runs them, then the shadow policies with the same
 * request and a deadline of their own (`timeoutMs` from when they start). Shadows run after the enforced ones so they
 * can never spend the time an enforced policy needs; a shadow that throws, rejects, times out or returns garbage is
 * an `"error"` stance and nothing more. The enforced result is returned as soon as it is known, untouched: a shadow
 * never changes an outcome, nor when it is given.
 */
export function evaluateWithShadows(
  enforced: readonly AgentPolicy[],
  shadows: readonly AgentPolicy[],
  request: PolicyRequest,
  timeoutMs: number,
  startedAt: number = monotonicNow(),
): ShadowedBatch | Promise<ShadowedBatch> {
  const batch = evaluatePolicyBatch(enforced, request, timeoutMs, startedAt);
  if (shadows.length === 0) return isPromiseLike(batch) ? batch.then((b) => ({ batch: b, divergences: NONE })) : { batch, divergences: NONE };
  const withShadows = (b: PolicyBatchResult): ShadowedBatch => {
    const start = b.endedAt ?? monotonicNow();
    return { batch: b, divergences: shadowDivergences(shadows, request, start + timeoutMs, b.verdict, start) };
  };
  return isPromiseLike(batch) ? batch.then(withShadows) : withShadows(batch);
}

/**
 * The shadow half of a batch on its own: each shadow against the enforced `verdict`, in order, from `start` until
 * `deadline`. Discovery runs it apart from the enforced half, so shadows never spend the discovery budget. Never
 * rejects: a shadow must never fail anything.
 */
export function shadowDivergences(
  shadows: readonly AgentPolicy[],
  request: PolicyRequest,
  deadline: number,
  verdict: PolicyBatchResult["verdict"],
  start: number,
): readonly ShadowDivergence[] | Promise<readonly ShadowDivergence[]> {
  const divergences: ShadowDivergence[] = [];
  const note = (policy: AgentPolicy, stance: PolicyDecisionRecord["type"]) => {
    if (stance !== verdict) divergences.push({ policy: policy.name, decision: stance });
  };
  let now = start;
  for (let i = 0; i < shadows.length; i++) {
    const policy = shadows[i]!;
    const remaining = deadline - now;
    if (remaining <= 0) {
      // The shared deadline is spent: as an enforced policy it would have failed here, and the batch stops.
      note(policy, "error");
      return divergences;
    }
    const single = evaluatePolicyBatch([policy], request, remaining, now);
    if (isPromiseLike(single)) return continueAsync(shadows, i, single, request, deadline, note).then(() => divergences);
    note(policy, single.verdict);
    now = single.endedAt ?? monotonicNow();
  }
  return divergences;
}

async function continueAsync(
  shadows: readonly AgentPolicy[],
  index: number,
  pending: Promise<PolicyBatchResult>,
  request: PolicyRequest,
  deadline: number,
  note: (policy: AgentPolicy, stance: PolicyDecisionRecord["type"]) => void,
): Promise<void> {
  // evaluatePolicyBatch never rejects; the catch is a last guard, because a shadow must never fail a call.
  note(shadows[index]!, (await pending.catch(() => undefined))?.verdict ?? "error");
  for (let i = index + 1; i < shadows.length; i++) {
    const remaining = deadline - monotonicNow();
    if (remaining <= 0) {
      note(shadows[i]!, "error");
      return;
    }
    const single = await Promise.resolve(evaluatePolicyBatch([shadows[i]!], request, remaining)).catch(() => undefined);
    note(shadows[i]!, single?.verdict ?? "error");
  }
}
