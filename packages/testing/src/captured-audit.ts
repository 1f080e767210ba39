import type { AgentAuditEvent, AgentAuditEventType, AuditSink } from "@orpc-agent/core";

/** An `AuditSink` that keeps what it receives, for assertions. */
export type CapturedAudit = AuditSink & {
  /** Every event so far, in emission order, as copies. */
  events(): AgentAuditEvent[];
  /** The `type` of every event so far, in order. */
  types(): AgentAuditEventType[];
  /** The events of one type, in order, as copies. */
  ofType<T extends AgentAuditEventType>(type: T): Extract<AgentAuditEvent, { type: T }>[];
  /** Forgets everything captured so far. */
  clear(): void;
};

/**
 * The reference audit sink (ADR-010): synchronous, so events are visible as soon as `invoke` returns, without
 * `drainAudit`. Reads return copies, so a test mutating one never changes what the next assertion sees.
 *
 * @example
 * import { createAgentRuntime, type Actor, type AgentGovernance } from "@orpc-agent/core";
 * import { capturedAudit } from "@orpc-agent/testing";
 * declare const governance: AgentGovernance, actor: Actor;
 * const audit = capturedAudit();
 * const runtime = createAgentRuntime({ governance, audit });
 * await runtime.invoke("orders.get", { id: "o1" }, { actor, context: {} });
 * audit.types(); // ["capability.requested", "capability.started", "capability.completed"]
 */
export function capturedAudit(): CapturedAudit {
  const captured: AgentAuditEvent[] = [];
  const sink: AuditSink = (event) => {
    captured.push(event);
  };
  return Object.assign(sink, {
    events: () => captured.map(copyEvent),
    types: () => captured.map((event) => event.type),
    ofType: <T extends AgentAuditEventType>(type: T) =>
      captured.filter((event): event is Extract<AgentAuditEvent, { type: T }> => event.type === type).map(copyEvent),
    clear: () => {
      captured.length = 0;
    },
  });
}

function copyEvent<E extends AgentAuditEvent>(event: E): E {
  return copyValue(event) as E;
}

// Plain data is copied; anything else (a foreign object in policy metadata, say) is shared rather than broken.
function copyValue(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map(copyValue);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) out[key] = copyValue(entry);
    return out;
  }
  return value;
}
