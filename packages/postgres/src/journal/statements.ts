import type { InvocationState } from "@orpc-agent/core/server";
import { epochMs } from "../encoding.js";

// Every statement the invocation journal issues (docs/architecture/spec/distributed.md#distributed-5-6). Each write is one conditional
// statement, so of concurrent callers exactly one gets a row back (D-3); none reads the database clock
// (the journal's `now` arrives as a parameter) and none takes a lock or opens a transaction (docs/architecture/spec/postgres.md#postgres-1).

/** P: every column, jsonb as text, instants as epoch milliseconds and the bigint fence as text (docs/architecture/spec/postgres.md#postgres-3-3). */
const PROJECTION = [
  "namespace",
  "invocation_id",
  "fingerprint",
  "capability_id",
  "surface",
  "actor_id",
  "actor_kind",
  "actor_via_id",
  "correlation_id",
  "state",
  "fence::text as fence",
  epochMs("lease_expires_at"),
  "approval_id",
  "suspension::text as suspension",
  "outcome::text as outcome",
  "unknown_reason",
  "resolution::text as resolution",
  epochMs("created_at"),
  epochMs("updated_at"),
].join(", ");

export function journalStatements(table: string) {
  return {
    /** $1 namespace … $8 correlation_id, $9 lease, $10 now, $11 actor_via_id. A taken key returns zero rows: the caller reads it. */
    insert: `insert into ${table} (namespace, invocation_id, fingerprint, capability_id, surface, actor_id, actor_kind,
  correlation_id, state, fence, lease_expires_at, created_at, updated_at, actor_via_id)
values ($1, $2, $3, $4, $5, $6, $7, $8, 'claimed', 1, $9::timestamptz, $10::timestamptz, $10::timestamptz, $11)
on conflict (namespace, invocation_id) do nothing
returning ${PROJECTION}`,

    /** Re-claims a row released by a `not-applied` resolution; never a suspended, lapsed or settled one (docs/architecture/spec/distributed.md#distributed-5-2 rule 3). */
    reclaimReleased: `update ${table}
set state = 'claimed', fence = fence + 1, lease_expires_at = $4::timestamptz, unknown_reason = null, updated_at = $5::timestamptz
where namespace = $1 and invocation_id = $2 and fingerprint = $3 and state = 'pending' and approval_id is null
returning ${PROJECTION}`,

    /** The resume claim: only a row suspended with this very approval id. */
    claimSuspended: `update ${table}
set state = 'claimed', fence = fence + 1, lease_expires_at = $4::timestamptz, unknown_reason = null, updated_at = $5::timestamptz
where namespace = $1 and invocation_id = $2 and approval_id = $3 and state = 'pending'
returning ${PROJECTION}`,

    /** Only the live holder's fence extends the lease; a superseded holder gets zero rows. */
    renew: `update ${table}
set lease_expires_at = $4::timestamptz, updated_at = $5::timestamptz
where namespace = $1 and invocation_id = $2 and state = 'claimed' and fence = $3
returning fence::text as fence`,

    /**
     * $4 ∈ settled | pending | unknown. No lease condition: a late finish by the current holder is the truth,
     * a superseded fence never matches (docs/architecture/spec/distributed.md#distributed-5-2 rule 2).
     */
    finish: `update ${table}
set state = $4, outcome = coalesce($5::jsonb, outcome), suspension = coalesce($6::jsonb, suspension),
  approval_id = coalesce($7, approval_id), unknown_reason = $8, lease_expires_at = null, updated_at = $9::timestamptz
where namespace = $1 and invocation_id = $2 and state = 'claimed' and fence = $3
returning ${PROJECTION}`,

    /** $4 ∈ settled | pending; eligible only when stored unknown or claimed past its lease at $7, the journal clock (docs/architecture/spec/distributed.md#distributed-5-5). */
    resolve: `update ${table}
set state = $4, outcome = $5::jsonb, resolution = $6::jsonb, unknown_reason = null, lease_expires_at = null,
  updated_at = $7::timestamptz
where namespace = $1 and invocation_id = $2 and fence = $3
  and (state = 'unknown' or (state = 'claimed' and lease_expires_at <= $7::timestamptz))
returning ${PROJECTION}`,

    get: `select ${PROJECTION} from ${table} where namespace = $1 and invocation_id = $2`,

    getByApproval: `select ${PROJECTION} from ${table} where namespace = $1 and approval_id = $2`,

    list: (f: ListFilter, now: string) => listStatement(table, f, now),
  };
}

export type ListFilter = { namespace: string; state?: InvocationState; updatedBefore?: string; limit?: number };

/**
 * One of a small fixed set of statement texts; every value is a parameter. The state filter is the observed
 * state: a claim past its lease is listed as `unknown`, never as `claimed`.
 */
function listStatement(table: string, f: ListFilter, now: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = [`namespace = ${param(f.namespace)}`];
  if (f.state === "claimed") where.push(`state = 'claimed' and lease_expires_at > ${param(now)}::timestamptz`);
  else if (f.state === "unknown") where.push(`(state = 'unknown' or (state = 'claimed' and lease_expires_at <= ${param(now)}::timestamptz))`);
  else if (f.state !== undefined) where.push(`state = ${param(f.state)}`);
  if (f.updatedBefore !== undefined) where.push(`updated_at < ${param(f.updatedBefore)}::timestamptz`);
  const limit = f.limit === undefined ? "" : ` limit ${param(f.limit)}`;
  return { sql: `select ${PROJECTION} from ${table} where ${where.join(" and ")} order by updated_at, invocation_id${limit}`, params };
}
