import type { RemoteExecutionResult } from "../../client/types.js";
import type { AgentRuntime, ExecutionResult } from "../../runtime/types.js";
import type { ClaimResult, InvocationRecord } from "../journal/types.js";
import { answerFromRecord, subjectOf } from "./answer-existing.js";
import { invocationIdempotencyKey } from "./hashing.js";
import { recordResult } from "./invoke.js";
import { holdLease, type Claim } from "./lease.js";
import { isCallersRecord } from "./principal.js";
import { outcomeUnknown, projectResult, serviceFailure, GENERIC_ERROR } from "./project-result.js";
import { settleClaim } from "./settle.js";
import type { ServiceState } from "./state.js";
import { streamHooks } from "./stream-hooks.js";
import type { ServiceResumeOptions } from "./types.js";

// Codes whose approval can never be resumed again, whatever the coordinator still says.
const TERMINAL_APPROVAL_CODES = new Set(["APPROVAL_REJECTED", "APPROVAL_EXPIRED", "APPROVAL_CONSUMED"]);

/**
 * `service.resume`: docs/architecture/spec/distributed.md#distributed-5-4 "resume". Remote resume requires the journal link; an unjournaled,
 * foreign (another actor id, kind or acting agent) or mismatched approval answers exactly like an unknown one (ADR-012 §6, SI-8).
 */
export async function resumeJournaled<C, O>(
  s: ServiceState,
  rt: AgentRuntime<C>,
  approvalId: string,
  o: ServiceResumeOptions<C>,
): Promise<RemoteExecutionResult<O>> {
  const unknownApproval = () => serviceFailure<O>(o.invocationId, GENERIC_ERROR);

  // (1) The journal link, checked against the server-fixed caller (resume's R2 guard: id, kind, acting agent) before
  // anything else, so another principal's approval is never claimed, entered or audited (SI-3, SI-8).
  let record: InvocationRecord | null;
  try {
    record = await s.journal.getByApproval(s.namespace, approvalId);
  } catch {
    return unknownApproval();
  }
  const foreign = record === null || record.invocationId !== o.invocationId || !isCallersRecord(record, o.actor, o.surface);
  if (foreign) return unknownApproval();
  const subject = subjectOf(record!);

  // (2) Only a suspended row is claimed; everything else answers from the journal.
  if (record!.state !== "pending") return answerFromRecord(s, record!, subject);
  let claimed: ClaimResult;
  try {
    claimed = await s.journal.claimSuspended({ namespace: s.namespace, invocationId: o.invocationId }, approvalId, new Date(s.now().getTime() + s.leaseMs));
  } catch {
    return serviceFailure(o.invocationId, GENERIC_ERROR);
  }
  if (claimed.kind === "conflict") return unknownApproval();
  if (claimed.kind === "existing") return answerFromRecord(s, claimed.record, subject);

  const claim: Claim = { key: { namespace: s.namespace, invocationId: o.invocationId }, fence: claimed.record.fence, subject };
  s.emit("claimed", subject, { fence: claim.fence });

  // (3) Resume with the original effect identity and the caller the server resolved now (fresh attributes).
  const idempotencyKey = await invocationIdempotencyKey(s.namespace, o.invocationId);
  const lease = holdLease(s, claim, o.signal);
  let result: ExecutionResult<O>;
  try {
    result = await rt.resume<O>(approvalId, {
      context: o.context,
      expectedActor: o.actor,
      expectedSurface: o.surface,
      correlationId: record!.correlationId,
      idempotencyKey,
      invocationId: o.invocationId,
      signal: lease.signal,
      ...streamHooks(o),
    });
  } finally {
    lease.stop();
  }
  if (lease.fencedOut) return outcomeUnknown(o.invocationId, "fenced-out");

  // (4) A refusal that left the approval usable returns the row to its suspension, so it stays resumable.
  if ((result.status === "failed" || result.status === "cancelled") && result.effectStatus === undefined && !TERMINAL_APPROVAL_CODES.has(result.error.code)) {
    const usable = await approvalStillUsable(rt, approvalId);
    if (usable === undefined) {
      // The coordinator cannot say; the claim is left to lapse so the application decides (docs/architecture/spec/distributed.md#distributed-5-5).
      s.emit("settlement_failed", subject, { fence: claim.fence });
      return projectResult(result, o.invocationId);
    }
    if (usable && record!.suspension !== undefined) {
      await settleClaim(s, claim, { state: "pending", approvalId, suspension: record!.suspension });
      return projectResult(result, o.invocationId);
    }
  }
  return recordResult(s, rt, claim, record!.capabilityId, result);
}

/** `true` for an unconsumed, non-terminal approval; `undefined` when the coordinator cannot be read. */
async function approvalStillUsable<C>(rt: AgentRuntime<C>, approvalId: string): Promise<boolean | undefined> {
  try {
    const approval = await rt.approvals.get(approvalId);
    return approval !== null && (approval.status === "pending" || approval.status === "approved");
  } catch {
    return undefined;
  }
}
