import type { AuditActorRef } from "../../audit/types.js";
import type { ExposureSurface } from "../../vocabulary/types.js";
import type { RemoteExecutionResult } from "../../client/types.js";

// The invocation journal (docs/architecture/spec/distributed.md#distributed-5-3): the record of which worker holds an invocation and what
// came of it. Every implementation passes test-fixtures/invocation-journal-contract.ts.

export type InvocationKey = { namespace: string; invocationId: string };

/** `unknown` is stored (`interrupted`) or observed on read: a `claimed` row past its lease reads `unknown`/`lease-lapsed`. */
export type InvocationState = "pending" | "claimed" | "settled" | "unknown";

/** A stored envelope; `body` is encoded with oRPC's RPC JSON serializer, so replays are type-identical. */
export type JournalOutcome = { status: RemoteExecutionResult["status"]; executionId: string; body: unknown };

export type InvocationResolution = {
  kind: "applied" | "failed" | "not-applied";
  by: AuditActorRef;
  note?: string;
  at: Date;
};

export type InvocationRecord = InvocationKey & {
  fingerprint: string;
  capabilityId: string;
  surface: ExposureSurface;
  /**
   * The principal that began the invocation: id, kind and the acting agent's id (`via`) when it had one. A journal must
   * store and return `via`: a row read back without it belongs to nobody who acts through an agent (fail closed).
   */
  actor: AuditActorRef;
  correlationId?: string;
  state: InvocationState;
  unknownReason?: "lease-lapsed" | "interrupted";
  fence: number;
  leaseExpiresAt?: Date;
  approvalId?: string;
  suspension?: JournalOutcome;
  outcome?: JournalOutcome;
  resolution?: InvocationResolution;
  createdAt: Date;
  updatedAt: Date;
};

export type ClaimResult = { kind: "claimed" | "existing"; record: InvocationRecord } | { kind: "conflict" };

export type JournalBeginEntry = Pick<
  InvocationRecord,
  "namespace" | "invocationId" | "fingerprint" | "capabilityId" | "surface" | "actor" | "correlationId"
> & { leaseExpiresAt: Date };

export type JournalFinish =
  | { state: "settled"; outcome: JournalOutcome }
  | { state: "pending"; approvalId: string; suspension: JournalOutcome }
  | { state: "unknown"; reason: "interrupted" };

export type JournalResolveTarget = { state: "settled"; outcome: JournalOutcome } | { state: "pending" };

export type JournalListFilter = { namespace: string; state?: InvocationState; updatedBefore?: Date; limit?: number };

/**
 * Storage for invocation claims and outcomes. Each write is one conditional step, so of concurrent
 * callers exactly one wins (D-3); no lease expiry ever makes a row claimable again (docs/architecture/spec/distributed.md#distributed-5-2 rule 3).
 */
export interface InvocationJournal {
  readonly durable: boolean;
  /** Inserts `claimed` at fence 1, or re-claims a released row (same fingerprint) at fence + 1. */
  begin(e: JournalBeginEntry): Promise<ClaimResult>;
  /** Claims a row suspended at the approval gate with this approval id, at fence + 1. */
  claimSuspended(k: InvocationKey, approvalId: string, leaseExpiresAt: Date): Promise<ClaimResult>;
  renew(k: InvocationKey, fence: number, leaseExpiresAt: Date): Promise<boolean>;
  finish(k: InvocationKey, fence: number, to: JournalFinish): Promise<boolean>;
  get(k: InvocationKey): Promise<InvocationRecord | null>;
  getByApproval(namespace: string, approvalId: string): Promise<InvocationRecord | null>;
  /** Only for `unknown` or lapsed `claimed` rows at `expectedFence`; `null` when not eligible. */
  resolve(k: InvocationKey, expectedFence: number, to: JournalResolveTarget, r: InvocationResolution): Promise<InvocationRecord | null>;
  list?(f: JournalListFilter): Promise<InvocationRecord[]>;
}
