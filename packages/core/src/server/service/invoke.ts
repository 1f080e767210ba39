import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AuditActorRef } from "../../audit/types.js";
import { canonicalJson } from "../../approvals/canonical-json.js";
import type { RemoteExecutionResult } from "../../client/types.js";
import type { AgentRuntime, ExecutionResult } from "../../runtime/types.js";
import type { ClaimResult, InvocationRecord } from "../journal/types.js";
import { answerFromRecord } from "./answer-existing.js";
import { invocationFingerprint, invocationIdempotencyKey } from "./hashing.js";
import { holdLease, type Claim } from "./lease.js";
import { isCallersRecord } from "./principal.js";
import { encodeOutcome } from "./outcome-codec.js";
import { isInterruptedWrite } from "./outcome-mapping.js";
import { capabilityNotFound } from "../../errors/concealed.js";
import { newExecutionId } from "../../internal/ids.js";
import { isVisibleTo } from "../../runtime/visibility.js";
import { GENERIC_ERROR, outcomeUnknown, projectResult, serviceFailure, toRemoteError, type SettledOrSuspended } from "./project-result.js";
import { settleClaim } from "./settle.js";
import type { EventSubject, ServiceState } from "./state.js";
import { streamHooks } from "./stream-hooks.js";
import type { ServiceInvokeOptions } from "./types.js";

const INVOCATION_CONFLICT = {
  code: "INVOCATION_CONFLICT",
  message: "This invocation id was already used for a different request; use a new id.",
  retryable: false,
} as const;
const DESCRIPTOR_STALE = { code: "DESCRIPTOR_STALE", message: "The capability changed; refresh the tool list.", retryable: false } as const;
const INPUT_UNENCODABLE = { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false } as const;

/** `service.invoke`: docs/architecture/spec/distributed.md#distributed-5-4, steps 1 to 7, wrapped around `runtime.invoke` from outside (ADR-007). */
export async function invokeJournaled<C, O>(
  s: ServiceState,
  rt: AgentRuntime<C>,
  capabilityId: string,
  input: unknown,
  o: ServiceInvokeOptions<C>,
): Promise<RemoteExecutionResult<O>> {
  const actor = toAuditActorRef(o.actor);
  const subject: EventSubject = { invocationId: o.invocationId, capabilityId, surface: o.surface, actor };

  // (1) Identity of the request. An input without an RPC JSON form cannot be journaled, so it is refused unjournaled.
  let fingerprint: string;
  try {
    fingerprint = await invocationFingerprint({ capabilityId, surface: o.surface, actor, input });
  } catch {
    return serviceFailure(o.invocationId, INPUT_UNENCODABLE);
  }

  // (2) The atomic claim. A journal that cannot be reached means nothing ran and nothing was journaled.
  let claimed: ClaimResult;
  try {
    claimed = await s.journal.begin({
      namespace: s.namespace,
      invocationId: o.invocationId,
      fingerprint,
      capabilityId,
      surface: o.surface,
      actor,
      correlationId: o.correlationId,
      leaseExpiresAt: new Date(s.now().getTime() + s.leaseMs),
    });
  } catch {
    return serviceFailure(o.invocationId, GENERIC_ERROR);
  }
  if (claimed.kind === "conflict") {
    s.emit("conflict", subject);
    // Another principal's id must look unused (SI-8): run unjournaled under an effect key of this caller's own.
    if (await heldByAnother(s, o)) return invokeUnjournaled(s, rt, capabilityId, input, o);
    return serviceFailure(o.invocationId, INVOCATION_CONFLICT);
  }
  if (claimed.kind === "existing") {
    // Never another principal's outcome, even from a journal that dropped the acting agent the fingerprint covers.
    if (isCallersRecord(claimed.record, o.actor, o.surface)) return answerFromRecord(s, claimed.record, subject);
    s.emit("conflict", subject);
    return invokeUnjournaled(s, rt, capabilityId, input, o);
  }

  const claim: Claim = { key: { namespace: s.namespace, invocationId: o.invocationId }, fence: claimed.record.fence, subject };
  s.emit("claimed", subject, { fence: claim.fence });

  // (3) The digest precondition: a refusal, settled without entering the runtime. It never widens anything.
  if (o.expectedDigest !== undefined && (await isStale(s, rt, capabilityId, o))) {
    s.emit("stale_descriptor", subject);
    // A stale digest would prove the capability exists: to an actor who cannot see it, answer as for an unknown id (SI-8).
    const refused = (await isVisibleTo(rt, o.surface, capabilityId, o.actor, o.context)) ? serviceFailure<O>(o.invocationId, DESCRIPTOR_STALE) : concealedAsUnknown<O>(o.invocationId);
    await settleClaim(s, claim, { state: "settled", outcome: encodeOutcome(refused, s.maxStoredOutputBytes) });
    return refused;
  }

  // (4), (5) Run under the lease, with the one effect key of this logical operation.
  const idempotencyKey = await invocationIdempotencyKey(s.namespace, o.invocationId);
  const lease = holdLease(s, claim, o.signal);
  let result: ExecutionResult<O>;
  try {
    result = await rt.invoke<O>(capabilityId, input, {
      actor: o.actor,
      context: o.context,
      surface: o.surface,
      signal: lease.signal,
      correlationId: o.correlationId,
      idempotencyKey,
      invocationId: o.invocationId,
      ...streamHooks(o),
    });
  } finally {
    lease.stop();
  }
  if (lease.fencedOut) return outcomeUnknown(o.invocationId, "fenced-out");

  // (6), (7) Map and record.
  return recordResult(s, rt, claim, capabilityId, result);
}

/** `true` when the row under this id belongs to another principal or surface; a row that cannot be read counts as the caller's. */
async function heldByAnother<C>(s: ServiceState, o: ServiceInvokeOptions<C>): Promise<boolean> {
  let record: InvocationRecord | null;
  try {
    record = await s.journal.get({ namespace: s.namespace, invocationId: o.invocationId });
  } catch {
    return false;
  }
  return record !== null && !isCallersRecord(record, o.actor, o.surface);
}

/**
 * The answer an unused id gets, without a journal row (the key is another's): the digest precondition, then the
 * runtime under an effect key scoped to this actor, so downstream deduplication never joins the other's effect.
 * @see docs/architecture/decisions.md (ADR "Invocation ids of another actor look unused")
 */
async function invokeUnjournaled<C, O>(s: ServiceState, rt: AgentRuntime<C>, capabilityId: string, input: unknown, o: ServiceInvokeOptions<C>): Promise<RemoteExecutionResult<O>> {
  if (o.expectedDigest !== undefined && (await isStale(s, rt, capabilityId, o))) {
    return (await isVisibleTo(rt, o.surface, capabilityId, o.actor, o.context)) ? serviceFailure<O>(o.invocationId, DESCRIPTOR_STALE) : concealedAsUnknown<O>(o.invocationId);
  }
  const idempotencyKey = await invocationIdempotencyKey(s.namespace, principalScopedId(toAuditActorRef(o.actor), o.invocationId));
  const result = await rt.invoke<O>(capabilityId, input, {
    actor: o.actor,
    context: o.context,
    surface: o.surface,
    signal: o.signal,
    correlationId: o.correlationId,
    idempotencyKey,
    invocationId: o.invocationId,
    ...streamHooks(o),
  });
  if (isInterruptedWrite(result, rt.registry, capabilityId)) return outcomeUnknown(o.invocationId, "interrupted");
  return projectResult(result, o.invocationId);
}

/**
 * The id an unjournaled call's effect key is derived from: one per principal (actor id, kind and acting agent), so two
 * agents reusing one id never share an effect key. An actor without an acting agent keeps the form it always had.
 */
function principalScopedId(caller: AuditActorRef, invocationId: string): string {
  if (caller.via === undefined) return `${caller.kind}\u0000${caller.id}\u0000${invocationId}`;
  return canonicalJson([caller.kind, caller.id, caller.via.id, invocationId]);
}

/** Step 6 of docs/architecture/spec/distributed.md#distributed-5-4, shared by invoke and resume for outcomes that need no approval read-back. */
export async function recordResult<C, O>(
  s: ServiceState,
  rt: AgentRuntime<C>,
  claim: Claim,
  capabilityId: string,
  result: ExecutionResult<O>,
): Promise<RemoteExecutionResult<O>> {
  const invocationId = claim.key.invocationId;
  if (isInterruptedWrite(result, rt.registry, capabilityId)) {
    await settleClaim(s, claim, { state: "unknown", reason: "interrupted" });
    s.emit("outcome_unknown", claim.subject, { reason: "interrupted" });
    return outcomeUnknown(invocationId, "interrupted");
  }
  const envelope: SettledOrSuspended<O> = projectResult(result, invocationId);
  const outcome = encodeOutcome(envelope, s.maxStoredOutputBytes);
  if (envelope.status === "approval-required") {
    await settleClaim(s, claim, { state: "pending", approvalId: envelope.approval.id, suspension: outcome });
  } else {
    await settleClaim(s, claim, { state: "settled", outcome });
  }
  return envelope;
}

/** The runtime's answer for an unknown id, projected: a fresh execution id, as a real refusal would carry. */
function concealedAsUnknown<O>(invocationId: string): SettledOrSuspended<O> {
  return { ...serviceFailure<O>(invocationId, toRemoteError(capabilityNotFound())), executionId: newExecutionId() } as SettledOrSuspended<O>;
}

/** Stale only when the capability exists and is exposed here; otherwise the runtime's concealed answer stands (SI-8). */
async function isStale<C>(s: ServiceState, rt: AgentRuntime<C>, capabilityId: string, o: ServiceInvokeOptions<C>): Promise<boolean> {
  const capability = rt.registry.get(capabilityId);
  if (capability === undefined || capability.meta.expose[o.surface] !== true) return false;
  try {
    return (await s.digestOf(o.surface, capability)) !== o.expectedDigest;
  } catch {
    // No current digest can be computed, so none can match: refusing never widens anything.
    return true;
  }
}
