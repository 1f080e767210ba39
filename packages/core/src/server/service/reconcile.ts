import type { Actor, ExposureSurface } from "../../vocabulary/types.js";
import type { ReconcileResult, RemoteExecutionResult } from "../../client/types.js";
import { decodeOutcome } from "./outcome-codec.js";
import { isCallersRecord } from "./principal.js";
import type { ServiceState } from "./state.js";

type Settled<O> = RemoteExecutionResult<O> & { status: "completed" | "failed" | "cancelled" };
type Suspended<O> = RemoteExecutionResult<O> & { status: "approval-required" };

/**
 * `service.reconcile`, the remote read (docs/architecture/spec/distributed.md#distributed-5-5). Rows of another principal (actor id, kind or
 * acting agent, by resume's guard) or surface answer `absent`, so other principals' ids look unused. It reports; it never changes a row.
 */
export async function reconcileJournaled<O>(s: ServiceState, invocationId: string, o: { actor: Actor; surface: ExposureSurface }): Promise<ReconcileResult<O>> {
  const base = { protocol: 1 as const, invocationId };
  const record = await s.journal.get({ namespace: s.namespace, invocationId });
  if (record === null || !isCallersRecord(record, o.actor, o.surface)) {
    return { ...base, state: "absent" };
  }
  switch (record.state) {
    case "settled":
      return { ...base, state: "settled", result: decodeOutcome<O>(record.outcome!) as Settled<O> };
    case "pending":
      // Suspended at the approval gate, or released by a `not-applied` resolution (then the same id re-claims).
      return record.suspension !== undefined && record.approvalId !== undefined
        ? { ...base, state: "pending", result: decodeOutcome<O>(record.suspension) as Suspended<O> }
        : { ...base, state: "pending" };
    case "claimed":
      return { ...base, state: "claimed", leaseExpiresAt: record.leaseExpiresAt!.toISOString() };
    case "unknown": {
      const reason = record.unknownReason ?? "interrupted";
      const since = reason === "lease-lapsed" && record.leaseExpiresAt !== undefined ? record.leaseExpiresAt : record.updatedAt;
      return { ...base, state: "unknown", reason, since: since.toISOString() };
    }
  }
}
