import type {
  ClaimResult,
  InvocationJournal,
  InvocationKey,
  InvocationRecord,
  InvocationResolution,
  JournalBeginEntry,
  JournalFinish,
  JournalListFilter,
  JournalResolveTarget,
} from "./types.js";

/** A row as stored: `state` is never the observed `unknown`/`lease-lapsed`, which is computed on read. */
type Row = InvocationRecord;

/**
 * A `Map`-backed journal for development and tests: `durable: false`, so nothing survives a restart.
 * Every method checks and sets without an interleaved `await`, which makes each write atomic.
 *
 * @example
 * import { createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
 * const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "shop", revision: "2024-06-01" });
 */
export function createInMemoryInvocationJournal(o: { now?: () => Date } = {}): InvocationJournal {
  const now = o.now ?? (() => new Date());
  const rows = new Map<string, Row>();
  const byApproval = new Map<string, string>();
  const keyOf = (k: InvocationKey) => `${k.namespace}\u0000${k.invocationId}`;
  const approvalKeyOf = (namespace: string, approvalId: string) => `${namespace}\u0000${approvalId}`;

  /** A detached copy, with a `claimed` row past its lease read as `unknown` (docs/architecture/spec/distributed.md#distributed-5-2). */
  const read = (row: Row): InvocationRecord => {
    const copy = structuredClone(row);
    if (copy.state === "claimed" && copy.leaseExpiresAt !== undefined && copy.leaseExpiresAt.getTime() <= now().getTime()) {
      copy.state = "unknown";
      copy.unknownReason = "lease-lapsed";
    }
    return copy;
  };
  const isLive = (row: Row) => row.state === "claimed";
  const isLapsed = (row: Row, at: Date) => row.state === "claimed" && row.leaseExpiresAt!.getTime() <= at.getTime();

  const claim = (row: Row, leaseExpiresAt: Date): ClaimResult => {
    row.state = "claimed";
    row.fence += 1;
    row.leaseExpiresAt = new Date(leaseExpiresAt.getTime());
    delete row.unknownReason;
    row.updatedAt = now();
    return { kind: "claimed", record: read(row) };
  };

  return {
    durable: false,

    async begin(e: JournalBeginEntry): Promise<ClaimResult> {
      const existing = rows.get(keyOf(e));
      if (existing !== undefined) {
        if (existing.fingerprint !== e.fingerprint) return { kind: "conflict" };
        // Only a row released by a `not-applied` resolution is claimable again (docs/architecture/spec/distributed.md#distributed-5-2).
        if (existing.state === "pending" && existing.approvalId === undefined) return claim(existing, e.leaseExpiresAt);
        return { kind: "existing", record: read(existing) };
      }
      const at = now();
      const row: Row = {
        namespace: e.namespace,
        invocationId: e.invocationId,
        fingerprint: e.fingerprint,
        capabilityId: e.capabilityId,
        surface: e.surface,
        // The acting agent too: a row is its principal's, and resume's guard compares `via` (SI-3).
        actor: e.actor.via === undefined ? { id: e.actor.id, kind: e.actor.kind } : { id: e.actor.id, kind: e.actor.kind, via: { id: e.actor.via.id } },
        state: "claimed",
        fence: 1,
        leaseExpiresAt: new Date(e.leaseExpiresAt.getTime()),
        createdAt: at,
        updatedAt: at,
      };
      if (e.correlationId !== undefined) row.correlationId = e.correlationId;
      rows.set(keyOf(e), row);
      return { kind: "claimed", record: read(row) };
    },

    async claimSuspended(k, approvalId, leaseExpiresAt): Promise<ClaimResult> {
      const row = rows.get(keyOf(k));
      if (row === undefined || row.approvalId !== approvalId) return { kind: "conflict" };
      if (row.state !== "pending") return { kind: "existing", record: read(row) };
      return claim(row, leaseExpiresAt);
    },

    async renew(k, fence, leaseExpiresAt): Promise<boolean> {
      const row = rows.get(keyOf(k));
      if (row === undefined || !isLive(row) || row.fence !== fence) return false;
      row.leaseExpiresAt = new Date(leaseExpiresAt.getTime());
      row.updatedAt = now();
      return true;
    },

    async finish(k, fence, to: JournalFinish): Promise<boolean> {
      const row = rows.get(keyOf(k));
      // A late finish by the current holder is accepted even after lapse; a superseded fence never is (docs/architecture/spec/distributed.md#distributed-5-2 rule 2).
      if (row === undefined || !isLive(row) || row.fence !== fence) return false;
      if (to.state === "pending") {
        const approvalKey = approvalKeyOf(k.namespace, to.approvalId);
        const owner = byApproval.get(approvalKey);
        if (owner !== undefined && owner !== keyOf(k)) throw new Error(`Approval ${to.approvalId} is already linked to another invocation.`);
        byApproval.set(approvalKey, keyOf(k));
        row.approvalId = to.approvalId;
        row.suspension = structuredClone(to.suspension);
      } else if (to.state === "settled") {
        row.outcome = structuredClone(to.outcome);
      } else {
        row.unknownReason = to.reason;
      }
      row.state = to.state;
      if (to.state !== "unknown") delete row.unknownReason;
      delete row.leaseExpiresAt;
      row.updatedAt = now();
      return true;
    },

    async get(k): Promise<InvocationRecord | null> {
      const row = rows.get(keyOf(k));
      return row === undefined ? null : read(row);
    },

    async getByApproval(namespace, approvalId): Promise<InvocationRecord | null> {
      const key = byApproval.get(approvalKeyOf(namespace, approvalId));
      const row = key === undefined ? undefined : rows.get(key);
      return row === undefined ? null : read(row);
    },

    async resolve(k, expectedFence, to: JournalResolveTarget, r: InvocationResolution): Promise<InvocationRecord | null> {
      const row = rows.get(keyOf(k));
      const at = now();
      if (row === undefined || row.fence !== expectedFence) return null;
      // A live claim may still settle: only stored `unknown` or a lapsed claim is resolvable (docs/architecture/spec/distributed.md#distributed-5-5).
      if (row.state !== "unknown" && !isLapsed(row, at)) return null;
      row.state = to.state;
      if (to.state === "settled") row.outcome = structuredClone(to.outcome);
      row.resolution = structuredClone(r);
      delete row.unknownReason;
      delete row.leaseExpiresAt;
      row.updatedAt = at;
      return read(row);
    },

    async list(f: JournalListFilter): Promise<InvocationRecord[]> {
      const out: InvocationRecord[] = [];
      for (const row of rows.values()) {
        if (row.namespace !== f.namespace) continue;
        const record = read(row);
        if (f.state !== undefined && record.state !== f.state) continue;
        if (f.updatedBefore !== undefined && !(record.updatedAt.getTime() < f.updatedBefore.getTime())) continue;
        out.push(record);
      }
      out.sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime());
      return f.limit === undefined ? out : out.slice(0, f.limit);
    },
  };
}
