import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AuditEmitter } from "../../audit/emitter.js";
import type { AgentAuditEvent } from "../../audit/types.js";
import { isWellFormedActor, type Actor } from "../../vocabulary/types.js";
import type { ApprovalSealer } from "../../approvals/seal/sealer.js";
import type { ApprovalCoordinator, ApprovalRecord, ApprovalRequest } from "../../approvals/types.js";
import type { RuntimeNotifications } from "./notifications.js";

export type ReRequestApprovalOptions = {
  /** Who re-requests; recorded in the audit event, never the requester of the fresh approval. */
  operator: Actor;
  /** Why, for the audit trail (for example "consuming execution exe_… never started"). */
  reason: string;
};

/**
 * The operator path for an approval consumed by an execution that never started (a crash between consumption
 * and the `capability.started` write): a fresh pending approval for the same capability, requester, surface and
 * input, which an approver must decide again. The consumed record is never re-used or released. The fresh id is
 * derived from the consumed one (`<id>.r`), so a second re-request of the same record fails instead of minting
 * another approval. Approvers are notified (`approval.requested`) as for an invocation's request.
 */
export async function reRequestApproval(
  coordinator: ApprovalCoordinator,
  id: string,
  options: ReRequestApprovalOptions,
  deps: { audit: AuditEmitter; now: () => Date; sealer?: ApprovalSealer | undefined; notifications?: RuntimeNotifications | undefined },
): Promise<ApprovalRecord> {
  if (!isWellFormedActor(options?.operator)) throw new TypeError("reRequest: operator must be a well-formed actor");
  if (typeof options.reason !== "string" || options.reason.trim() === "") throw new TypeError("reRequest: reason must be a non-empty string");
  const record = await coordinator.get(id);
  // With `approvals.seal`, a record the runtime did not seal as stored is unknown here as at resume (SI-8): the
  // fresh request would be sealed, laundering an edited or minted row into one an approver trusts.
  if (record === null || (deps.sealer !== undefined && !(await verifies(deps.sealer, record)))) throw new Error(`Approval "${id}" was not found`);
  if (record.status !== "consumed" || record.consumedByExecutionId === undefined) {
    throw new Error(`Approval "${id}" cannot be re-requested (status: ${record.status}); only a consumed approval can`);
  }
  const requestedAt = deps.now();
  const ttlMs = record.expiresAt.getTime() - record.requestedAt.getTime();
  const request: ApprovalRequest = {
    id: `${record.id}.r`,
    capabilityId: record.capabilityId,
    surface: record.surface,
    actor: record.actor,
    input: record.input,
    inputHash: record.inputHash,
    ...(record.submittedInput === undefined ? {} : { submittedInput: record.submittedInput }),
    reasons: [...record.reasons],
    types: [...record.types],
    risk: record.risk,
    sideEffect: record.sideEffect,
    requestedAt,
    expiresAt: new Date(requestedAt.getTime() + ttlMs),
    // The same quorum again; the votes of the consumed record never carry over.
    ...(record.quorum === undefined ? {} : { quorum: record.quorum }),
    // Still bound to what the first request was asked under: a widening since then voids this one too.
    ...(record.definition === undefined ? {} : { definition: record.definition }),
    ...(record.definitionDigest === undefined ? {} : { definitionDigest: record.definitionDigest }),
    ...(record.manifestDigest === undefined ? {} : { manifestDigest: record.manifestDigest }),
  };
  const created = await coordinator.create(request);
  // Approvers hear of the fresh request as of any other, before the audit write a strict sink may refuse: the record
  // exists pending either way. Only queued; nothing the notifier does changes this answer.
  deps.notifications?.requested(created);
  if (deps.audit.enabled) {
    const event = reRequestEvent(created, record, options, requestedAt);
    // In strict mode the operator learns of a failed audit write; the fresh record then exists, still pending.
    if (deps.audit.strict) await deps.audit.emitAwaited(event);
    else deps.audit.emit(event);
  }
  return created;
}

async function verifies(sealer: ApprovalSealer, record: ApprovalRecord): Promise<boolean> {
  try {
    return await sealer.verifyRecord(record);
  } catch {
    return false;
  }
}

function reRequestEvent(created: ApprovalRecord, consumed: ApprovalRecord, options: ReRequestApprovalOptions, timestamp: Date): AgentAuditEvent {
  return Object.freeze({
    type: "capability.approval_requested",
    timestamp,
    surface: created.surface,
    actor: toAuditActorRef(created.actor),
    capabilityId: created.capabilityId,
    inputHash: created.inputHash,
    data: Object.freeze({
      approvalId: created.id,
      reasons: created.reasons,
      types: created.types,
      expiresAt: created.expiresAt,
      ...(created.quorum === undefined ? {} : { quorum: created.quorum }),
      reRequest: Object.freeze({
        of: consumed.id,
        consumedByExecutionId: consumed.consumedByExecutionId!,
        operator: toAuditActorRef(options.operator),
        reason: options.reason,
      }),
    }),
  }) as AgentAuditEvent;
}
