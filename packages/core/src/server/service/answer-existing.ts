import type { RemoteExecutionResult } from "../../client/types.js";
import type { InvocationRecord } from "../journal/types.js";
import { decodeOutcome } from "./outcome-codec.js";
import { outcomeUnknown } from "./project-result.js";
import type { EventSubject, ServiceState } from "./state.js";

/**
 * Rule 4 of docs/architecture/spec/distributed.md#distributed-5-2: an existing row answers from the journal and nothing re-runs. Settled and
 * suspended rows replay their stored envelope (`replayed: true`); anything else is `outcome-unknown`.
 */
export function answerFromRecord<O>(s: ServiceState, record: InvocationRecord, subject: EventSubject): RemoteExecutionResult<O> {
  if (record.state === "settled" && record.outcome !== undefined) {
    s.emit("replayed", subject, { status: record.outcome.status });
    return decodeOutcome<O>(record.outcome);
  }
  if (record.state === "pending" && record.suspension !== undefined) {
    s.emit("replayed", subject, { status: record.suspension.status });
    return decodeOutcome<O>(record.suspension);
  }
  const reason = record.state === "claimed" ? "in-progress" : (record.unknownReason ?? "interrupted");
  s.emit("outcome_unknown", subject, { reason });
  return outcomeUnknown(record.invocationId, reason);
}

export function subjectOf(record: InvocationRecord): EventSubject {
  return { invocationId: record.invocationId, capabilityId: record.capabilityId, surface: record.surface, actor: record.actor };
}
