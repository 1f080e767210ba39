import type { Actor } from "../vocabulary/types.js";
import { createInMemoryGrantStore } from "./grants/in-memory-grants.js";
import type { GrantStore } from "./grants/types.js";
import { approvalAlreadyApprovedError, approvalNotFoundError, approvalNotPendingError, readApprovalDecision } from "./decide-refusals.js";
import { isExpired } from "./expiry.js";
import { isValidQuorum, quorumOf } from "./quorum.js";
import type {
  ApprovalCoordinator,
  ApprovalDecision,
  ApprovalListFilter,
  ApprovalRecord,
  ApprovalRequest,
  ApprovalStatus,
  ApprovalVote,
} from "./types.js";

export type InMemoryApprovalCoordinatorOptions = {
  /** The coordinator clock: lazy expiry and `decidedAt`. Defaults to `() => new Date()`. */
  now?: () => Date;
};

/** The in-memory coordinator always has `list`, and keeps standing grants (SI-13). */
export type InMemoryApprovalCoordinator = ApprovalCoordinator &
  GrantStore & {
    list(filter?: ApprovalListFilter): Promise<ApprovalRecord[]>;
    claimNotice(id: string, notice: string, at: Date): Promise<boolean>;
  };

/**
 * A `Map`-backed approval coordinator for development and tests; state lives in the process
 * and is lost on restart. Passes the coordinator contract suite (docs/architecture/spec/core.md#core-10).
 *
 * @example
 * import { createAgentRuntime, createInMemoryApprovalCoordinator, type AgentGovernance } from "@orpc-agent/core";
 * declare const governance: AgentGovernance, clock: { now(): Date };
 * const coordinator = createInMemoryApprovalCoordinator({ now: () => clock.now() });
 * const runtime = createAgentRuntime({ governance, approvals: { coordinator } });
 */
export function createInMemoryApprovalCoordinator(
  options: InMemoryApprovalCoordinatorOptions = {},
): InMemoryApprovalCoordinator {
  const now = options.now ?? (() => new Date());
  const records = new Map<string, ApprovalRecord>();
  // Notices claimed per approval id (escalation, expiry warning); kept beside the record, never part of it.
  const notices = new Map<string, Set<string>>();
  const grants = createInMemoryGrantStore(now);

  // Every method does its checks and its mutation synchronously, before any await, so
  // concurrent calls cannot interleave between check and set (docs/architecture/spec/core.md#core-10).
  const coordinator: InMemoryApprovalCoordinator = {
    async create(request) {
      if (records.has(request.id)) throw new Error(`Approval "${request.id}" already exists`);
      if (request.quorum !== undefined && !isValidQuorum(request.quorum)) {
        throw new Error(`Invalid quorum ${String(request.quorum)} for approval "${request.id}": an integer >= 1`);
      }
      const stored: ApprovalRecord = { ...storedRequest(request), status: "pending" };
      if (stored.quorum !== undefined) stored.approvals = [];
      records.set(stored.id, stored);
      return detach(stored, stored.status);
    },

    async get(id) {
      const stored = records.get(id);
      return stored === undefined ? null : detach(stored, reportedStatus(stored, now()));
    },

    async decide(id, decision) {
      const accepted = validDecision(decision);
      const stored = records.get(id);
      if (stored === undefined) throw approvalNotFoundError(id);
      const decidedAt = now();
      const status = reportedStatus(stored, decidedAt);
      if (status !== "pending") throw approvalNotPendingError(id, status);
      if (accepted.status === "approved" && stored.approvals !== undefined) {
        // One vote per approver id: a repeat is refused, never counted again (docs/guides/quorum-approvals.md).
        if (stored.approvals.some((vote) => vote.approver.id === accepted.approver.id)) {
          throw approvalAlreadyApprovedError(id, accepted.approver.id);
        }
        const vote: ApprovalVote = { approver: accepted.approver, at: new Date(decidedAt.getTime()) };
        if (accepted.comment !== undefined) vote.comment = accepted.comment;
        if (accepted.seal !== undefined) vote.seal = accepted.seal;
        stored.approvals.push(vote);
        if (stored.approvals.length < quorumOf(stored)) return detach(stored, stored.status);
      }
      stored.status = accepted.status;
      stored.decision = { ...accepted, decidedAt: new Date(decidedAt.getTime()) };
      return detach(stored, stored.status);
    },

    async markConsumed(id, executionId) {
      // The consuming execution is the operator's evidence: a record must never read consumed by nobody.
      if (typeof executionId !== "string" || executionId === "") {
        throw new Error(`Approval "${id}" cannot be consumed without an execution id`);
      }
      const stored = records.get(id);
      if (stored === undefined) throw new Error(`Approval "${id}" was not found`);
      // Only pending expires, so an approved record past expiresAt is still consumable (docs/architecture/spec/core.md#core-15-item-9).
      if (stored.status !== "approved" || stored.consumedByExecutionId !== undefined) {
        const status = reportedStatus(stored, now());
        const by = stored.consumedByExecutionId === undefined ? "" : `, consumed by ${stored.consumedByExecutionId}`;
        throw new Error(`Approval "${id}" cannot be consumed (status: ${status}${by})`);
      }
      stored.status = "consumed";
      stored.consumedByExecutionId = executionId;
      return detach(stored, stored.status);
    },

    async list(filter = {}) {
      const at = now();
      const out: ApprovalRecord[] = [];
      for (const stored of records.values()) {
        const status = reportedStatus(stored, at);
        if (filter.status !== undefined && status !== filter.status) continue;
        if (filter.capabilityId !== undefined && stored.capabilityId !== filter.capabilityId) continue;
        if (filter.actorId !== undefined && stored.actor.id !== filter.actorId) continue;
        out.push(detach(stored, status));
      }
      // Oldest first, the same order as the postgres coordinator (docs/architecture/spec/postgres.md#postgres-5-3).
      return out.sort(byRequestedAtThenId);
    },

    async claimNotice(id, notice, at) {
      const stored = records.get(id);
      if (stored === undefined || typeof notice !== "string" || reportedStatus(stored, at) !== "pending") return false;
      let claimed = notices.get(id);
      if (claimed === undefined) notices.set(id, (claimed = new Set()));
      if (claimed.has(notice)) return false;
      claimed.add(notice);
      return true;
    },

    createGrant: grants.createGrant,
    getGrant: grants.getGrant,
    listGrants: grants.listGrants,
    useGrant: grants.useGrant,
    revokeGrant: grants.revokeGrant,
  };
  inMemory.add(coordinator);
  return coordinator;
}

// Process memory needs no seal: whoever can edit it can edit the runtime too (the startup warning W4 skips it).
const inMemory = new WeakSet<object>();

/** Whether `value` came from `createInMemoryApprovalCoordinator`. */
export function isInMemoryCoordinator(value: unknown): boolean {
  return typeof value === "object" && value !== null && inMemory.has(value);
}

/** Lazy expiry, strict: at exactly `expiresAt` a record is still pending (docs/architecture/spec/core.md#core-10); a broken clock expires it. */
function reportedStatus(record: ApprovalRecord, at: Date): ApprovalStatus {
  return record.status === "pending" && isExpired(record.expiresAt, at) ? "expired" : record.status;
}

/** Typed refusals (INPUT_INVALID, UNAUTHENTICATED) before the record is read, so known and unknown ids answer alike. */
function validDecision(decision: ApprovalDecision): ApprovalDecision {
  // Read once, the approver as its JSON copy: what was checked is what is kept; extra fields have no effect (SI-4, SI-6).
  return readApprovalDecision(decision);
}

/** Picks the request fields only, each detached the way a persistent store would keep it. */
function storedRequest(request: ApprovalRequest): ApprovalRequest {
  return {
    id: request.id,
    capabilityId: request.capabilityId,
    surface: request.surface,
    actor: jsonCopy(request.actor) as Actor,
    input: jsonCopy(request.input),
    inputHash: request.inputHash,
    reasons: [...request.reasons],
    types: [...request.types],
    risk: request.risk,
    sideEffect: request.sideEffect,
    requestedAt: new Date(request.requestedAt.getTime()),
    expiresAt: new Date(request.expiresAt.getTime()),
    ...(request.submittedInput === undefined ? {} : { submittedInput: jsonCopy(request.submittedInput) }),
    // A quorum of 1 is the single-approver default, stored as such.
    ...(request.quorum === undefined || request.quorum === 1 ? {} : { quorum: request.quorum }),
    ...(typeof request.seal === "string" ? { seal: request.seal } : {}),
    ...(typeof request.definitionDigest === "string" ? { definitionDigest: request.definitionDigest } : {}),
    ...(typeof request.manifestDigest === "string" ? { manifestDigest: request.manifestDigest } : {}),
    ...(request.definition === undefined ? {} : { definition: jsonCopy(request.definition) }),
    ...(typeof request.conversationId === "string" ? { conversationId: request.conversationId } : {}),
  };
}

function detach(record: ApprovalRecord, status: ApprovalStatus): ApprovalRecord {
  const copy: ApprovalRecord = { ...storedRequest(record), status };
  if (record.decision !== undefined) {
    const { decidedAt, ...decision } = record.decision;
    copy.decision = { ...decision, approver: jsonCopy(decision.approver) as Actor, decidedAt: new Date(decidedAt.getTime()) };
    // An edit is detached like the request's input: a caller changing what it got back changes nothing stored.
    if (decision.input !== undefined) copy.decision.input = jsonCopy(decision.input);
  }
  if (record.approvals !== undefined) copy.approvals = record.approvals.map(copyVote);
  if (record.consumedByExecutionId !== undefined) copy.consumedByExecutionId = record.consumedByExecutionId;
  return copy;
}

function copyVote(vote: ApprovalVote): ApprovalVote {
  const copy: ApprovalVote = { approver: jsonCopy(vote.approver) as Actor, at: new Date(vote.at.getTime()) };
  if (vote.comment !== undefined) copy.comment = vote.comment;
  if (vote.seal !== undefined) copy.seal = vote.seal;
  return copy;
}

/** JSON semantics, as a persistent store keeps input: a `Date` becomes its ISO string; absent stays absent. */
function jsonCopy(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function byRequestedAtThenId(a: ApprovalRecord, b: ApprovalRecord): number {
  const byTime = a.requestedAt.getTime() - b.requestedAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
