import { isPromiseLike, monotonicNow, timerDelay } from "../internal/promise.js";
import { isPolicyDecision } from "./is-decision.js";
import type { AgentPolicy, PolicyDecision, PolicyDecisionRecord, PolicyRequest } from "../capability/types.js";

export type ApprovalDemand = { policy: string; reason: string; approvalType?: string; expiresInMs?: number; quorum?: number };

/** The combined outcome of one batch: the applicable policies of one phase for one capability. docs/architecture/spec/core.md#core-3-1 */
export type PolicyBatchResult = {
  verdict: "allow" | "deny" | "hide" | "require-approval" | "error";
  records: PolicyDecisionRecord[];
  /** The first deny: supplies the public message and app code. */
  deny?: { policy: string; code?: string; message?: string };
  approvals: ApprovalDemand[];
  /** A batch that stayed synchronous: the clock reading taken after its last policy, for the caller to reuse. */
  endedAt?: number;
};

const TIMED_OUT = Symbol("policy-timeout");

/**
 * Evaluates every policy in order, sharing one deadline. Synchronous results are used as they come; a deadline timer
 * is armed only when a policy returns a promise, so an all-sync batch never leaves the current tick (docs/architecture/spec/core.md#core-16).
 */
export function evaluatePolicyBatch(
  policies: readonly AgentPolicy[],
  request: PolicyRequest,
  timeoutMs: number,
  startedAt: number = monotonicNow(),
): PolicyBatchResult | Promise<PolicyBatchResult> {
  const deadline = startedAt + timeoutMs;
  const records: PolicyDecisionRecord[] = [];
  const decisions: (PolicyDecision | undefined)[] = [];

  let now = startedAt;
  for (let i = 0; i < policies.length; i++) {
    // The first policy starts at `startedAt`, inside a positive timeout; later ones reuse the previous one's end.
    if (i > 0 && now >= deadline) return finish(policies, records, decisions, i);
    const policy = policies[i]!;
    let returned: unknown;
    let pending: boolean;
    try {
      returned = policy.evaluate(request);
      // Inside the try: a `then` getter that throws is a throwing policy, not a broken batch (SI-7).
      pending = isPromiseLike(returned);
    } catch {
      now = monotonicNow();
      record(records, decisions, policy, undefined);
      continue;
    }
    if (pending) return continueAsync(policies, request, deadline, records, decisions, i, returned as PromiseLike<unknown>);
    now = monotonicNow();
    // A synchronous answer given after the deadline is a timed-out one: it fails closed (SI-7).
    record(records, decisions, policy, now > deadline ? undefined : returned);
  }
  const result = combine(records, decisions, policies);
  result.endedAt = now;
  return result;
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
    let isPending: boolean;
    if (pending) {
      returned = pending;
      isPending = true;
      pending = undefined;
    } else {
      try {
        returned = policy.evaluate(request);
        isPending = isPromiseLike(returned);
      } catch {
        record(records, decisions, policy, undefined);
        continue;
      }
    }
    if (isPending) {
      const settled = await raceDeadline(returned as PromiseLike<unknown>, deadline);
      record(records, decisions, policy, settled === TIMED_OUT ? undefined : settled);
    } else {
      record(records, decisions, policy, inTime(returned, deadline));
    }
  }
  return combine(records, decisions, policies);
}

/** A synchronous answer given after the deadline is a timed-out one: it fails closed (SI-7). */
function inTime(returned: unknown, deadline: number): unknown {
  return monotonicNow() > deadline ? undefined : returned;
}

function raceDeadline(value: PromiseLike<unknown>, deadline: number): Promise<unknown> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Timers can fire a fraction of a millisecond early; the monotonic deadline decides, so a batch cut short by the
    // discovery budget always finds the budget spent (docs/architecture/spec/core.md#core-8 step 3: never a short catalog). The same re-arming
    // makes a deadline beyond the longest timer delay exact.
    const arm = () => {
      timer = setTimeout(() => (monotonicNow() >= deadline ? resolve(TIMED_OUT) : arm()), timerDelay(Math.max(1, deadline - monotonicNow())));
      (timer as { unref?: () => void }).unref?.();
    };
    arm();
    try {
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
    } catch {
      // A thenable whose `then` throws is a rejecting policy (SI-7); the batch itself never rejects.
      clearTimeout(timer);
      resolve(undefined);
    }
  });
}

function record(records: PolicyDecisionRecord[], decisions: (PolicyDecision | undefined)[], policy: AgentPolicy, value: unknown): void {
  const decision = readDecision(value);
  if (decision !== undefined) {
    const rec: PolicyDecisionRecord = { policy: policy.name, type: decision.type };
    if (decision.type === "allow" && decision.metadata !== undefined) rec.metadata = decision.metadata;
    records.push(rec);
    decisions.push(decision);
  } else {
    records.push({ policy: policy.name, type: "error" });
    decisions.push(undefined);
  }
}

/**
 * Reads a returned value exactly once into a fresh decision, so what was recorded is what combines: a getter that
 * answers "hide" when checked and something else later must not turn into an allow. A throwing getter, like any
 * shape outside the four, is an "error" stance (docs/architecture/spec/core.md#core-3-1 step 3, SI-7).
 */
function readDecision(value: unknown): PolicyDecision | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  let copy: Record<string, unknown>;
  try {
    const source = value as Record<string, unknown>;
    const type = source.type;
    copy = { type };
    const fields = type === "allow" ? ALLOW_FIELDS : type === "deny" ? DENY_FIELDS : type === "require-approval" ? APPROVAL_FIELDS : NO_FIELDS;
    for (const field of fields) {
      const item = source[field];
      if (item !== undefined) copy[field] = item;
    }
  } catch {
    return undefined;
  }
  return isPolicyDecision(copy) ? copy : undefined;
}

const NO_FIELDS: readonly string[] = [];
const ALLOW_FIELDS: readonly string[] = ["metadata"];
const DENY_FIELDS: readonly string[] = ["code", "message"];
const APPROVAL_FIELDS: readonly string[] = ["reason", "approvalType", "expiresInMs", "quorum"];

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
      if (d.quorum !== undefined) demand.quorum = d.quorum;
      approvals.push(demand);
    }
  }
  if (hasDeny) return { verdict: "deny", records, deny, approvals };
  if (hasHide) return { verdict: "hide", records, approvals };
  if (approvals.length > 0) return { verdict: "require-approval", records, approvals };
  return { verdict: "allow", records, approvals };
}
