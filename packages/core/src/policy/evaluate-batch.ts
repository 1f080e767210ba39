import { isPromiseLike, monotonicNow } from "../internal/promise.js";
import { isPolicyDecision } from "./is-decision.js";
import type { AgentPolicy, PolicyDecision, PolicyDecisionRecord, PolicyRequest } from "./types.js";

export type ApprovalDemand = { policy: string; reason: string; approvalType?: string; expiresInMs?: number };

/** The combined outcome of one batch: the applicable policies of one phase for one capability. core.md §3.1 */
export type PolicyBatchResult = {
  verdict: "allow" | "deny" | "hide" | "require-approval" | "error";
  records: PolicyDecisionRecord[];
  /** The first deny: supplies the public message and app code. */
  deny?: { policy: string; code?: string; message?: string };
  approvals: ApprovalDemand[];
};

const TIMED_OUT = Symbol("policy-timeout");

/**
 * Evaluates every policy in order, sharing one deadline. Synchronous results are used as they come; a deadline timer
 * is armed only when a policy returns a promise, so an all-sync batch never leaves the current tick (core.md §16).
 */
export function evaluatePolicyBatch(
  policies: readonly AgentPolicy[],
  request: PolicyRequest,
  timeoutMs: number,
): PolicyBatchResult | Promise<PolicyBatchResult> {
  const deadline = monotonicNow() + timeoutMs;
  const records: PolicyDecisionRecord[] = [];
  const decisions: (PolicyDecision | undefined)[] = [];

  for (let i = 0; i < policies.length; i++) {
    if (monotonicNow() >= deadline) return finish(policies, records, decisions, i);
    const policy = policies[i]!;
    let returned: unknown;
    try {
      returned = policy.evaluate(request);
    } catch {
      record(records, decisions, policy, undefined);
      continue;
    }
    if (isPromiseLike(returned)) return continueAsync(policies, request, deadline, records, decisions, i, returned);
    record(records, decisions, policy, returned);
  }
  return combine(records, decisions, policies);
}

async function continueAsync(
  policies: readonly AgentPolicy[],
  request: PolicyRequest,
  deadline: number,
  records: PolicyDecisionRecord[],
  decisions: (PolicyDecision | undefined)[],
  start: number,
  firstPending: PromiseLike<unknown>,
): Promise<PolicyBatchResult> {
  let pending: PromiseLike<unknown> | undefined = firstPending;
  for (let i = start; i < policies.length; i++) {
    const policy = policies[i]!;
    const remaining = deadline - monotonicNow();
    if (remaining <= 0) return finish(policies, records, decisions, i);
    let returned: unknown;
    if (pending) {
      returned = pending;
      pending = undefined;
    } else {
      try {
        returned = policy.evaluate(request);
      } catch {
        record(records, decisions, policy, undefined);
        continue;
      }
    }
    if (isPromiseLike(returned)) {
      const settled = await raceDeadline(returned, deadline);
      record(records, decisions, policy, settled === TIMED_OUT ? undefined : settled);
    } else {
      record(records, decisions, policy, returned);
    }
  }
  return combine(records, decisions, policies);
}

function raceDeadline(value: PromiseLike<unknown>, deadline: number): Promise<unknown> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout>;
    // Timers can fire a fraction of a millisecond early; the monotonic deadline decides, so a batch cut short by the
    // discovery budget always finds the budget spent (core.md §8 step 3: never a short catalog).
    const arm = () => {
      timer = setTimeout(() => (monotonicNow() >= deadline ? resolve(TIMED_OUT) : arm()), Math.max(1, deadline - monotonicNow()));
      (timer as { unref?: () => void }).unref?.();
    };
    arm();
    value.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

function record(records: PolicyDecisionRecord[], decisions: (PolicyDecision | undefined)[], policy: AgentPolicy, value: unknown): void {
  if (isPolicyDecision(value)) {
    const rec: PolicyDecisionRecord = { policy: policy.name, type: value.type };
    if (value.type === "allow" && value.metadata !== undefined) rec.metadata = value.metadata;
    records.push(rec);
    decisions.push(value);
  } else {
    records.push({ policy: policy.name, type: "error" });
    decisions.push(undefined);
  }
}

/** The deadline is spent: the next policy records "error" and the batch stops. */
function finish(
  policies: readonly AgentPolicy[],
  records: PolicyDecisionRecord[],
  decisions: (PolicyDecision | undefined)[],
  index: number,
): PolicyBatchResult {
  records.push({ policy: policies[index]!.name, type: "error" });
  decisions.push(undefined);
  return combine(records, decisions, policies);
}

/** Precedence: error > deny > hide > require-approval > allow (SI-7). */
function combine(records: PolicyDecisionRecord[], decisions: (PolicyDecision | undefined)[], policies: readonly AgentPolicy[]): PolicyBatchResult {
  let hasDeny = false;
  let hasHide = false;
  let deny: PolicyBatchResult["deny"];
  const approvals: ApprovalDemand[] = [];
  for (let i = 0; i < decisions.length; i++) {
    const d = decisions[i];
    if (d === undefined) return { verdict: "error", records, approvals: [] };
    if (d.type === "deny") {
      if (!hasDeny) {
        deny = { policy: policies[i]!.name };
        if (d.code !== undefined) deny.code = d.code;
        if (d.message !== undefined) deny.message = d.message;
      }
      hasDeny = true;
    } else if (d.type === "hide") hasHide = true;
    else if (d.type === "require-approval") {
      const demand: ApprovalDemand = { policy: policies[i]!.name, reason: d.reason };
      if (d.approvalType !== undefined) demand.approvalType = d.approvalType;
      if (d.expiresInMs !== undefined) demand.expiresInMs = d.expiresInMs;
      approvals.push(demand);
    }
  }
  if (hasDeny) return { verdict: "deny", records, deny, approvals };
  if (hasHide) return { verdict: "hide", records, approvals };
  if (approvals.length > 0) return { verdict: "require-approval", records, approvals };
  return { verdict: "allow", records, approvals };
}
