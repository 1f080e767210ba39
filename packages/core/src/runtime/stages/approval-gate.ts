import { buildApprovalRequest } from "../approvals/build-request.js";
import { approvalDefinition, manifestDigest } from "../approvals/definition.js";
import type { ApprovalDecision, ApprovalRecord, ApprovalRequest } from "../../approvals/types.js";
import { refusesSelfApproval } from "../../approvals/self-approval.js";
import { refusesActingAgent } from "../../approvals/acting-agent.js";
import { sameApprover } from "../../approvals/approver-identity.js";
import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { Actor } from "../../vocabulary/types.js";
import { isAcceptableApprover } from "../../approvals/approver.js";
import { isExpired } from "../../approvals/expiry.js";
import { quorumOf } from "../../approvals/quorum.js";
import { CapabilityError } from "../../errors/capability-error.js";
import type { ApprovalDemand } from "../../policy/evaluate-batch.js";
import { auditEvent, type Execution } from "../execution.js";
import { isPromiseLike } from "../../internal/promise.js";
import { hasCanonicalForm } from "../../approvals/hash.js";
import { isPlainJsonSnapshot } from "../../internal/input-snapshot.js";
import { ensureInputHash } from "./input-hash.js";
import { coverWithGrant, type GrantCover } from "../grants/cover.js";

export type GateOutcome =
  | { kind: "suspended"; record: ApprovalRecord }
  /** `quorum`: the distinct approvers behind it, when a grant's issuers (absent: one). */
  | { kind: "approved"; approval: { id: string; approver: Actor }; types: readonly string[]; quorum?: number }
  | { kind: "error"; error: CapabilityError };

const approvalFailure = (cause: unknown) => new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause });

type GateInit = { actor: Actor; input: unknown; submittedInput: unknown; demands: readonly ApprovalDemand[] };

/**
 * Stage 8: build and announce the merged request, then either take an inline decision (final in this call)
 * or store it with the coordinator and suspend. docs/architecture/spec/core.md#core-10
 * A call a grant covers from a same-tick store is answered without a promise (issue 45's in-memory budget).
 */
export function runApprovalGate(exec: Execution, init: GateInit): GateOutcome | Promise<GateOutcome> {
  // A standing grant covers the call before anyone is asked (SI-13); only capabilities that opted in look.
  if (exec.plan!.meta.approval?.grants === undefined || exec.rt.grantStore === undefined) return askWithHash(exec, init);
  // An input with no canonical form could not be approved one by one, so no grant covers it either (SI-13). Covering
  // needs only that verdict (a plain JSON snapshot has one by construction); the hash itself, when nothing has taken
  // it yet, waits for a request to bind it.
  const representable = (exec.inputHashed && exec.inputHash !== undefined) || isPlainJsonSnapshot(init.input, exec) || hasCanonicalForm(init.input);
  if (!representable) return unserializable();
  const covered = coverWithGrant(exec, init);
  if (isPromiseLike(covered)) return covered.then((cover) => coveredOrAsk(exec, init, cover));
  return coveredOrAsk(exec, init, covered);
}

function coveredOrAsk(exec: Execution, init: GateInit, cover: GrantCover | undefined): GateOutcome | Promise<GateOutcome> {
  return cover === undefined ? askWithHash(exec, init) : approvedByGrant(exec, cover);
}

function askWithHash(exec: Execution, init: GateInit): GateOutcome | Promise<GateOutcome> {
  const hashing = ensureInputHash(exec, init.input);
  const ask = (inputHash: string | undefined) => (inputHash === undefined ? unserializable() : requestApproval(exec, init, inputHash));
  return isPromiseLike(hashing) ? hashing.then(ask) : ask(hashing);
}

function unserializable(): GateOutcome {
  return { kind: "error", error: new CapabilityError({ code: "APPROVAL_UNSERIALIZABLE_INPUT" }) };
}

async function requestApproval(exec: Execution, init: GateInit, inputHash: string): Promise<GateOutcome> {
  const { rt } = exec;
  const plan = exec.plan!;
  const bound = await approvalDefinition(plan, exec.surface);
  const request = buildApprovalRequest({
    plan,
    surface: exec.surface,
    actor: init.actor,
    input: init.input,
    inputHash,
    submittedInput: init.submittedInput,
    demands: init.demands,
    requestedAt: rt.now(),
    defaultExpiresInMs: rt.defaults.approvalExpiresInMs,
    conversationId: exec.conversationId,
    definition: { definition: bound.definition, digest: bound.digest, manifestDigest: await manifestDigest(rt.governance) },
  });
  exec.approvalId = request.id;
  if (rt.audit.enabled) {
    rt.audit.emit(
      auditEvent(exec, "capability.approval_requested", {
        approvalId: request.id,
        reasons: [...request.reasons],
        types: [...request.types],
        expiresAt: request.expiresAt,
        ...(request.quorum === undefined ? {} : { quorum: request.quorum }),
      }),
    );
  }
  const span = rt.tracing?.startSpan(
    "agent.approval_request",
    { "orpc_agent.capability_id": plan.id, "orpc_agent.approval_id": request.id, "orpc_agent.execution_id": exec.executionId },
    exec.span,
  );
  const outcome = await decideOrStore(exec, request);
  span?.end(outcome.kind === "error" ? "error" : "ok");
  return outcome;
}

/** A covered call proceeds as an approved one; its `capability.approved` names the grant and the uses it has left. */
function approvedByGrant(exec: Execution, covered: GrantCover): GateOutcome {
  const { rt } = exec;
  const { grant } = covered;
  exec.approvalId = grant.id;
  if (rt.audit.enabled) {
    const approver = toAuditActorRef(covered.approver);
    const event = auditEvent(exec, "capability.approved", { approvalId: grant.id, approver, grant: { id: grant.id, usesLeft: covered.usesLeft } });
    // The issuer is the decision's actor, as for every approval (docs/architecture/spec/core.md#core-10).
    rt.audit.emit(Object.freeze({ ...event, actor: approver }));
  }
  return { kind: "approved", approval: { id: grant.id, approver: covered.approver }, types: grant.types, quorum: covered.quorum };
}

async function decideOrStore(exec: Execution, request: ApprovalRequest): Promise<GateOutcome> {
  const { rt } = exec;
  // An inline handler answers for one person; a quorum is collected from several over time, so it is stored.
  if (rt.approvalHandler && quorumOf(request) === 1) {
    let decision: ApprovalDecision | undefined;
    try {
      decision = await rt.approvalHandler(request);
    } catch (cause) {
      return { kind: "error", error: approvalFailure(cause) };
    }
    if (decision !== undefined) return applyInlineDecision(exec, request, decision);
  }
  try {
    const record = await rt.coordinator.create(request);
    // Only queued: approvers hear of it off the call's path, and nothing the notifier does changes this answer.
    rt.notifications?.requested(record);
    return { kind: "suspended", record };
  } catch (cause) {
    return { kind: "error", error: approvalFailure(cause) };
  }
}

function applyInlineDecision(exec: Execution, request: ApprovalRequest, decision: ApprovalDecision): GateOutcome {
  const { rt } = exec;
  const valid =
    typeof decision === "object" &&
    decision !== null &&
    (decision.status === "approved" || decision.status === "rejected") &&
    isAcceptableApprover(decision.approver);
  if (!valid) return { kind: "error", error: approvalFailure(new Error("The inline approval handler returned an invalid decision.")) };
  // An inline edit would be ignored, running the input the approver meant to change: approve with changes is the
  // coordinator flow's (runtime.approvals.decide), so an inline decision carrying one fails closed (SI-5).
  if (decision.input !== undefined || decision.inputHash !== undefined) {
    return { kind: "error", error: approvalFailure(new Error("An inline approval cannot change the input; store the request and decide it with runtime.approvals.decide.")) };
  }

  if (rt.audit.enabled) {
    const approver = toAuditActorRef(decision.approver);
    const data: { approvalId: string; approver: typeof approver; comment?: string } = { approvalId: request.id, approver };
    if (typeof decision.comment === "string") data.comment = decision.comment;
    // Decision events carry the approver as the event's actor (docs/architecture/spec/core.md#core-10).
    const event = auditEvent(exec, decision.status === "approved" ? "capability.approved" : "capability.rejected", data);
    rt.audit.emit(Object.freeze({ ...event, actor: approver }));
  }
  if (decision.status === "rejected") return { kind: "error", error: new CapabilityError({ code: "APPROVAL_REJECTED" }) };
  if (isExpired(request.expiresAt, rt.now())) return { kind: "error", error: new CapabilityError({ code: "APPROVAL_EXPIRED" }) };
  if (sameApprover(decision.approver.id, request.actor.id) && refusesSelfApproval(rt, request.types)) {
    return { kind: "error", error: new CapabilityError({ code: "APPROVAL_SELF_APPROVAL" }) };
  }
  // Separation of duties: the acting agent may not approve inline, nor relay another person's approval (SI-4).
  if (refusesActingAgent(rt, request.actor, [decision.approver])) {
    return { kind: "error", error: new CapabilityError({ code: "APPROVAL_SELF_APPROVAL" }) };
  }
  return { kind: "approved", approval: { id: request.id, approver: decision.approver }, types: request.types };
}
