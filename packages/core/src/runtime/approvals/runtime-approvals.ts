import { toAuditActorRef } from "../../audit/actor-ref.js";
import type { AgentAuditEvent } from "../../audit/types.js";
import type { AuditEmitter } from "../../audit/emitter.js";
import { CapabilityError } from "../../errors/capability-error.js";
import type { SelfApprovalRule } from "../../approvals/self-approval.js";
import { reRequestApproval } from "./re-request.js";
import { assertEditAllowed, bindEditedInput, type DecisionEdits } from "./approve-with-changes.js";
import type { ApprovalSealer } from "../../approvals/seal/sealer.js";
import { approvalNotFoundError, readApprovalDecision } from "../../approvals/decide-refusals.js";
import { assertMayDecide } from "../../approvals/may-decide.js";
import type { MacKeys } from "../../approvals/seal/mac.js";
import { assertLinkBinding, createDecisionLinks, type LinkDecision } from "./decision-links.js";
import type { RuntimeNotifications } from "./notifications.js";
import { createApprovalSweep } from "./sweep.js";
import { newExecutionId } from "../../internal/ids.js";
import type { CapabilityRegistry } from "../../registry/types.js";
import { approvalProgress, quorumOf } from "../../approvals/quorum.js";
import type { ApprovalCoordinator, ApprovalDecision, ApprovalRecord, ApprovalRequest, RuntimeApprovalDecision, RuntimeApprovals } from "../../approvals/types.js";
import { readGrantRequest } from "../../approvals/grants/request.js";
import type { GrantRecord, GrantRequest, GrantTerms } from "../../approvals/grants/types.js";
import type { DecisionGrants } from "../grants/with-decision.js";

/**
 * `runtime.approvals`: the coordinator, with `decide` guarded and audited (docs/architecture/spec/core.md#core-10). Self-approval is refused
 * before the coordinator is touched, so the record stays pending for someone else (SI-4).
 */
export function wrapCoordinator(
  coordinator: ApprovalCoordinator,
  options: {
    audit: AuditEmitter;
    now: () => Date;
    selfApproval: SelfApprovalRule;
    sealer?: ApprovalSealer | undefined;
    unsealed?: ApprovalCoordinator;
    /** Grants issued with an approval (SI-13); without it a decision carrying a grant is refused. */
    grants?: DecisionGrants;
    /** Approve with changes (issue 50); without it a decision carrying an edited input is refused. */
    edits?: DecisionEdits;
    /** The keys of `approvals.links`; without them decision links are refused (`APPROVAL_LINKS_DISABLED`). */
    links?: MacKeys | undefined;
    /** `approvals.notify`: told of each decision taken, only queued (never awaited). */
    notifications?: RuntimeNotifications | undefined;
    /** Where a sweep finds each capability's `approval.escalate`; without it a sweep sends expiry warnings only. */
    registry?: CapabilityRegistry;
  },
): RuntimeApprovals {
  let sweep: RuntimeApprovals["sweep"] | undefined;
  const wrapped: RuntimeApprovals = {
    // A request handed in from outside was not asked for by an invocation: with `approvals.seal` it is stored
    // unsealed (any seal it carries dropped), so it can be decided but never resumed (SI-8).
    create: (request) => (options.unsealed === undefined ? coordinator.create(request) : options.unsealed.create(withoutSeal(request))),
    // With `approvals.seal`, a sealed record that fails its seal reads as unknown, so no approver is shown an edit.
    get: async (id) => {
      const record = await coordinator.get(id);
      return record !== null && !(await shownAsSealed(options.sealer, record)) ? null : record;
    },
    markConsumed: (id, executionId) => coordinator.markConsumed(id, executionId),
    reRequest: (id, reRequestOptions) => reRequestApproval(coordinator, id, reRequestOptions, options),
    async decide(id: string, given: RuntimeApprovalDecision): Promise<ApprovalRecord & { grant?: GrantRecord }> {
      try {
        return await decideGuarded(id, given);
      } catch (error) {
        // Every refusal is typed; anything else a coordinator throws is its failure (docs/reference/errors.md).
        throw CapabilityError.isInstance(error) ? error : new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause: error });
      }
    },
    // A decision link is one more way to call `decide`, through the same guards (docs/guides/decision-links.md).
    ...createDecisionLinks({
      mac: options.links,
      now: options.now,
      selfApproval: options.selfApproval,
      get: (id) => wrapped.get(id),
      decide: (id, decision, link) => decideGuarded(id, decision, link),
    }),
    // Bound below, once `list` is known: a sweep sees only what the runtime's listing shows.
    sweep: (sweepOptions) => sweep!(sweepOptions),
  };

  /**
   * The guards, in order: the decision itself (before the record is read, so every id answers alike), the record as
   * the runtime shows it (a record whose seal fails is unknown, SI-8), separation of duties (SI-4), one vote per
   * person; then the coordinator's compare-and-set, and the audit on success only.
   */
  async function decideGuarded(id: string, given: RuntimeApprovalDecision, link?: LinkDecision): Promise<ApprovalRecord & { grant?: GrantRecord }> {
    // Read once: the guards, the seal, the store and the audit all see one approver, whatever getters it has (SI-8).
    const decision = readApprovalDecision(given);
    const grantRequest = readDecisionGrant(given, decision);
    assertEditAllowed(decision, grantRequest);
    // Read even without rejectSelfApproval: a quorum record refuses its requester under every rule.
    const record = await wrapped.get(id);
    if (record === null) throw approvalNotFoundError(id);
    if (link !== undefined) assertLinkBinding(record, link);
    const quorum = quorumOf(record);
    assertMayDecide(record, decision, options.selfApproval);
    // A grant is checked in full before anything is decided, so a refused one leaves the record pending (SI-13).
    let terms: GrantTerms | undefined;
    if (grantRequest !== undefined && record.status === "pending") {
      if (options.grants === undefined) throw new CapabilityError({ code: "GRANT_NOT_ALLOWED", cause: new Error("This runtime issues no grants") });
      // One person cannot speak for a quorum: issue it with runtime.grants.issue and every approver (docs/guides/standing-grants.md).
      if (quorum > 1) throw new CapabilityError({ code: "GRANT_ISSUERS_INSUFFICIENT", cause: new Error(`Approval "${id}" needs ${quorum} approvers; one decision cannot issue a grant for it`) });
      terms = await options.grants.prepare(record, decision.approver, grantRequest);
    }
    // An edit is bound (validated, policies re-run, hashed) before anything is decided, so a refused one leaves the
    // record pending; on a record no longer pending the coordinator refuses the decision as it is (SI-5).
    const bound = decision.input !== undefined && record.status === "pending" ? await bindEditedInput(options.edits, record, decision) : decision;
    const decided = await coordinator.decide(id, bound);
    if (options.audit.enabled) options.audit.emit(decisionEvent(decided, bound, options.now(), link));
    if (typeof bound.inputHash === "string") await assertEditKept(coordinator, decided, bound.inputHash);
    options.notifications?.decided(decided, bound);
    if (terms === undefined || decided.status !== "approved") return decided;
    // The decision stands whatever happens next; a store failing here surfaces as INTERNAL_ERROR with no grant issued.
    return { ...decided, grant: await options.grants!.store(terms) };
  }

  if (typeof coordinator.list === "function") {
    const list = coordinator.list.bind(coordinator);
    wrapped.list = async (filter) => {
      const records = await list(filter);
      if (options.sealer === undefined) return records;
      const shown = await Promise.all(records.map((record) => shownAsSealed(options.sealer, record)));
      return records.filter((_, index) => shown[index]);
    };
  }
  sweep = createApprovalSweep({
    coordinator,
    list: wrapped.list,
    registry: options.registry ?? { get: () => undefined },
    notifications: options.notifications,
    audit: options.audit,
    now: options.now,
  });
  return Object.freeze(wrapped);
}

/**
 * A store that predates edits keeps the approval but drops `input` and `inputHash` (in what `decide` returns, or in
 * what it reads back): the record would then resume the request as asked, which the approver did not approve. Such an
 * approval is voided (consumed by no execution that runs) and the decision refused, so neither the edit nor the
 * original executes (SI-5). Edits are rare; the read back costs one `get`.
 */
async function assertEditKept(coordinator: ApprovalCoordinator, decided: ApprovalRecord, inputHash: string): Promise<void> {
  if (decided.status !== "approved") return;
  if (decided.decision?.inputHash === inputHash) {
    let stored: ApprovalRecord | null | undefined;
    try {
      stored = await coordinator.get(decided.id);
    } catch {
      stored = undefined;
    }
    if (stored?.decision?.inputHash === inputHash) return;
  }
  const cause = new Error(`The approvals coordinator did not keep the edited input of approval "${decided.id}"; the approval was voided`);
  try {
    await coordinator.markConsumed(decided.id, newExecutionId());
  } catch (error) {
    throw new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause: new AggregateError([cause, error], cause.message) });
  }
  throw new CapabilityError({ code: "INTERNAL_ERROR", stage: "approval", cause });
}

/** The decision's `grant`, read once and checked; only an approval carries one. */
function readDecisionGrant(given: unknown, decision: ApprovalDecision): GrantRequest | undefined {
  let grant: unknown;
  try {
    grant = (given as { grant?: unknown }).grant;
  } catch {
    throw grantInvalid("The decision grant cannot be read.");
  }
  if (grant === undefined) return undefined;
  if (decision.status !== "approved") throw grantInvalid("Only an approval can issue a grant.");
  return readGrantRequest(grant);
}

function grantInvalid(message: string): CapabilityError {
  return new CapabilityError({ code: "INPUT_INVALID", stage: "approval", details: { issues: [{ path: ["grant"], message }] }, cause: new Error(message) });
}

/** A record without a seal (one handed to `create`) is shown as it is: it can never resume. */
async function shownAsSealed(sealer: ApprovalSealer | undefined, record: ApprovalRecord): Promise<boolean> {
  if (sealer === undefined || typeof record?.seal !== "string") return true;
  try {
    return await sealer.verifyRecord(record);
  } catch {
    return false;
  }
}

function withoutSeal(request: ApprovalRequest): ApprovalRequest {
  if (typeof request !== "object" || request === null) return request;
  const { seal: _seal, ...rest } = request;
  return rest;
}

function decisionEvent(record: ApprovalRecord, decision: ApprovalDecision, timestamp: Date, link?: LinkDecision): AgentAuditEvent {
  const approver = toAuditActorRef(decision.approver);
  const data: { approvalId: string; approver: typeof approver; comment?: string; approvalCount?: number; quorum?: number; via?: "link"; linkId?: string } = {
    approvalId: record.id,
    approver,
  };
  if (typeof decision.comment === "string") data.comment = decision.comment;
  // Approve with changes: the event's inputHash is the request's, this one what the approval now binds.
  if (typeof decision.inputHash === "string") Object.assign(data, { editedInputHash: decision.inputHash });
  // The link's id (a hash of its nonce), never its token: the token is a bearer secret.
  if (link !== undefined) Object.assign(data, { via: "link", linkId: link.linkId });
  const quorum = quorumOf(record);
  if (quorum > 1) {
    data.approvalCount = approvalProgress(record).approvals;
    data.quorum = quorum;
  }
  // An approval short of the quorum leaves the record pending: it is recorded, not an approval of the request.
  const type =
    decision.status === "rejected" ? "capability.rejected" : record.status === "pending" ? "capability.approval_recorded" : "capability.approved";
  // The approver is the event's actor; no executionId, since deciding executes nothing (ADR-012 §8).
  return Object.freeze({
    type,
    timestamp,
    surface: record.surface,
    actor: approver,
    capabilityId: record.capabilityId,
    inputHash: record.inputHash,
    data: Object.freeze(data),
  }) as AgentAuditEvent;
}
