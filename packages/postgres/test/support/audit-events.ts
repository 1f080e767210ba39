import type { AgentAuditEvent } from "@orpc-agent/core";
import type { PgQuery } from "../../src/index.js";

let sequence = 0;

/** A frozen audit event as core emits it; `type` defaults to a bufferable terminal event. */
export function auditEvent(overrides: Partial<AgentAuditEvent> = {}): AgentAuditEvent {
  sequence += 1;
  return Object.freeze({
    type: "capability.completed",
    timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, 0, sequence)),
    surface: "mcp",
    actor: { id: "user_1", kind: "user" },
    executionId: `exe_${sequence}`,
    capabilityId: "orders.refund",
    data: { durationMs: 5, attempts: 1 },
    ...overrides,
  } as AgentAuditEvent);
}

export const startedEvent = (executionId = `exe_started_${sequence + 1}`): AgentAuditEvent =>
  auditEvent({ type: "capability.started", executionId, data: { attempt: 1 } } as Partial<AgentAuditEvent>);

/** A PgQuery that records statements and answers from a script: resolve, or reject with an error. */
export function scriptedQuery(answer: (sql: string, params: unknown[]) => Error | undefined = () => undefined) {
  const calls: { sql: string; params: unknown[] }[] = [];
  const query: PgQuery = async (sql, params) => {
    calls.push({ sql, params });
    const failure = answer(sql, params);
    if (failure !== undefined) throw failure;
    return { rows: [] };
  };
  return { calls, query };
}

/** Tracks a promise's outcome without awaiting it. */
export function settlement(promise: Promise<unknown>) {
  const state: { status: "pending" | "fulfilled" | "rejected"; reason?: unknown } = { status: "pending" };
  promise.then(
    () => {
      state.status = "fulfilled";
    },
    (reason: unknown) => {
      state.status = "rejected";
      state.reason = reason;
    },
  );
  return state;
}

/** Rows in an insert statement's VALUES list. */
export const rowsOf = (sql: string): number => (sql.match(/\(\$\d+, /g) ?? []).length;
