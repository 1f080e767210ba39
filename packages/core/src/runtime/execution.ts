import type { AgentAuditEvent, AgentAuditEventType, AuditActorRef } from "../audit/types.js";
import { auditedCapabilityId } from "./audit-capability-id.js";
import { toAuditActorRef } from "../audit/actor-ref.js";
import type { ExposureSurface } from "../vocabulary/types.js";
import type { PolicyDecisionRecord } from "../capability/types.js";
import { NOOP_SPAN } from "../tracing/no-op.js";
import type { SpanHandle } from "../tracing/types.js";
import type { CapabilityPlan } from "./plan.js";
import type { RuntimeState } from "./state.js";

/**
 * The mutable record of one execution: identity, evidence fields and what stages learned so far.
 * Stages read it; only the orchestrators (invoke, resume) emit events from it.
 */
export type Execution = {
  readonly rt: RuntimeState;
  readonly executionId: string;
  readonly surface: ExposureSurface;
  /**
   * Stage 2's instant on the runtime clock; the Date itself is handed to `capability.requested`. Only events read
   * the Date, so without a sink only its time is kept: one object less per call in flight (issue 28).
   */
  readonly startedAt: Date | undefined;
  /** `startedAt` in epoch milliseconds; 0 without a sink, where no duration is reported. */
  readonly startedAtMs: number;
  readonly correlationId: string | undefined;
  readonly span: SpanHandle;
  /** The actor as events name it; only built when a sink is configured (nothing else reads it). */
  auditActor: AuditActorRef | undefined;
  capabilityId: string;
  plan: CapabilityPlan | undefined;
  /** Set once stage 5 (or resume's R5) knows it, and only when something consumes it. */
  inputHash: string | undefined;
  inputHashed: boolean;
  policyDecisions: PolicyDecisionRecord[] | undefined;
  attempts: number;
  approvalId: string | undefined;
  /** The caller's conversation (`invoke`'s `conversationId`, or the approval record's on resume); set only when there is one. */
  conversationId?: string;
  /** Stage 5's snapshot, when a grant may cover the call and it is plain JSON (`isPlainJsonSnapshot`); set only then. */
  plainJsonInput?: object;
};

type DataOf<T extends AgentAuditEventType> = Extract<AgentAuditEvent, { type: T }>["data"];

/** Builds one frozen event for all sinks; callers check `rt.audit.enabled` first so nothing is built without sinks. */
export function auditEvent<T extends AgentAuditEventType>(exec: Execution, type: T, data: DataOf<T>, timestamp: Date = exec.rt.now()): AgentAuditEvent {
  const event: Record<string, unknown> = {
    type,
    timestamp,
    surface: exec.surface,
    actor: exec.auditActor!,
    executionId: exec.executionId,
  };
  // An unknown approval id has no capability to name.
  if (exec.capabilityId !== "") event.capabilityId = exec.capabilityId;
  if (exec.correlationId !== undefined) event.correlationId = exec.correlationId;
  if (exec.inputHash !== undefined) event.inputHash = exec.inputHash;
  event.data = Object.freeze(data);
  return Object.freeze(event) as AgentAuditEvent;
}

/** Emits one event; returns its receipt id when the chain is on and the event is terminal. */
export function emit<T extends AgentAuditEventType>(exec: Execution, type: T, data: () => DataOf<T>, timestamp?: Date): string | undefined {
  return exec.rt.audit.enabled ? exec.rt.audit.emit(auditEvent(exec, type, data(), timestamp)) : undefined;
}

export function createExecution(
  rt: RuntimeState,
  init: { executionId: string; capabilityId: string; surface: ExposureSurface; actor: unknown; correlationId: string | undefined; approvalId?: string },
): Execution {
  const auditActor = rt.audit.enabled || rt.tracing ? toAuditActorRef(init.actor) : undefined;
  const capabilityId = auditedCapabilityId(rt, init.capabilityId);
  // Only events read the start (its Date, and durations from it): without a sink the clock is not read (issue 28).
  const startedAt = rt.audit.enabled ? rt.now() : undefined;
  let span = NOOP_SPAN;
  if (rt.tracing && auditActor !== undefined) {
    const attributes: Record<string, string> = {
      "orpc_agent.capability_id": capabilityId,
      "orpc_agent.surface": init.surface,
      "orpc_agent.actor_kind": auditActor.kind,
      "orpc_agent.actor_id": auditActor.id,
      "orpc_agent.execution_id": init.executionId,
    };
    if (auditActor.via !== undefined) attributes["orpc_agent.actor_via_id"] = auditActor.via.id;
    if (init.approvalId !== undefined) attributes["orpc_agent.approval_id"] = init.approvalId;
    span = rt.tracing.startSpan("agent.capability_call", attributes);
  }
  return {
    rt,
    executionId: init.executionId,
    surface: init.surface,
    startedAt,
    startedAtMs: startedAt === undefined ? 0 : startedAt.getTime(),
    correlationId: init.correlationId,
    span,
    auditActor: rt.audit.enabled ? auditActor : undefined,
    capabilityId,
    plan: undefined,
    inputHash: undefined,
    inputHashed: false,
    policyDecisions: undefined,
    attempts: 0,
    approvalId: init.approvalId,
  };
}

export function durationMs(exec: Execution, end: Date = exec.rt.now()): number {
  return Math.max(0, end.getTime() - exec.startedAtMs);
}

export function recordPolicyDecisions(exec: Execution, records: readonly PolicyDecisionRecord[]): void {
  if (records.length === 0) return;
  (exec.policyDecisions ??= []).push(...records);
}
