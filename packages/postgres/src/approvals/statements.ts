import type { ApprovalListFilter } from "@orpc-agent/core";
import { epochMs } from "../encoding.js";

// Every statement the coordinator issues (docs/architecture/spec/postgres.md#postgres-5-3). Each is one statement with
// positional parameters; none reads the database clock (docs/architecture/spec/postgres.md#postgres-5-1) or takes a lock (docs/architecture/spec/postgres.md#postgres-1, Locking).

/** P: every column, jsonb as text and instants as epoch milliseconds (docs/architecture/spec/postgres.md#postgres-3-3). */
export const PROJECTION = [
  "id",
  "capability_id",
  "surface",
  "actor::text as actor",
  "input::text as input",
  "input_hash",
  "submitted_input::text as submitted_input",
  "reasons::text as reasons",
  "types::text as types",
  "risk",
  "side_effect",
  "status",
  epochMs("requested_at"),
  epochMs("expires_at"),
  "decided_by::text as decided_by",
  epochMs("decided_at"),
  "decision_comment",
  "consumed_by_execution_id",
  "quorum",
  "approvals::text as approvals",
  "seal",
  "decision_seal",
  "definition_digest",
  "manifest_digest",
  "definition::text as definition",
  "conversation_id",
  "decision_input::text as decision_input",
  "decision_input_hash",
].join(", ");

// Whether the approval being recorded completes the quorum; NULL quorum and NULL approvals are the single-approver case.
const COMPLETES = "coalesce(jsonb_array_length(approvals), 0) + 1 >= coalesce(quorum, 1)";

export function approvalStatements(table: string, decisionChannel?: string) {
  const notifying = (update: string, channelParam: number) => (decisionChannel === undefined ? update : notifyDecided(update, channelParam));
  return {
    /**
     * $1 id … $12 expires_at, $13 submitted_input, $14 quorum, $15 seal, $16 definition_digest, $17 manifest_digest,
     * $18 definition, $19 conversation_id; the conflict arm makes a duplicate id return zero rows.
     */
    create: `insert into ${table} (id, capability_id, surface, actor, input, input_hash, reasons, types, risk, side_effect, status, requested_at, expires_at, submitted_input, quorum, approvals, seal, definition_digest, manifest_digest, definition, conversation_id)
values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7::jsonb, $8::jsonb, $9, $10, 'pending', $11::timestamptz, $12::timestamptz, $13::jsonb, $14::integer, case when $14::integer is null then null else '[]'::jsonb end, $15, $16, $17, $18::jsonb, $19)
on conflict (id) do nothing
returning ${PROJECTION}`,

    get: `select ${PROJECTION} from ${table} where id = $1`,

    /** Compare-and-set; $4 is the coordinator clock reading, both `decided_at` and the expiry guard (docs/architecture/spec/postgres.md#postgres-5-2: strict); $6 the seal. */
    decide: notifying(
      `update ${table}
set status = $2, decided_by = $3::jsonb, decided_at = $4::timestamptz, decision_comment = $5, decision_seal = $6
where id = $1 and status = 'pending' and expires_at >= $4::timestamptz
returning ${PROJECTION}`,
      7,
    ),

    /**
     * Compare-and-set for one approval. $1 id, $2 approver, $3 the clock reading, $4 comment, $5 the vote, $6 the
     * approver id, $7 the decision's seal, $8 and $9 an edited input and its hash (approve with changes). A quorum record appends the vote and turns approved only when it completes the quorum; a
     * record that already holds a vote by this approver id matches nothing, so concurrent decides never count
     * one approver twice (under READ COMMITTED the waiting update re-checks its WHERE and recomputes its SET on
     * the committed row). A single-approver record is approved exactly as by \`decide\`.
     */
    approve: notifying(
      `update ${table}
set approvals = case when coalesce(quorum, 1) > 1 then coalesce(approvals, '[]'::jsonb) || jsonb_build_array($5::jsonb) else approvals end,
  status = case when ${COMPLETES} then 'approved' else 'pending' end,
  decided_by = case when ${COMPLETES} then $2::jsonb else null end,
  decided_at = case when ${COMPLETES} then $3::timestamptz else null end,
  decision_comment = case when ${COMPLETES} then $4::text else null end,
  decision_seal = case when ${COMPLETES} then $7::text else null end,
  decision_input = case when ${COMPLETES} then $8::jsonb else null end,
  decision_input_hash = case when ${COMPLETES} then $9::text else null end
where id = $1 and status = 'pending' and expires_at >= $3::timestamptz
  and not coalesce(approvals, '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('approver', jsonb_build_object('id', $6::text)))
returning ${PROJECTION}`,
      10,
    ),

    /**
     * Compare-and-set: of concurrent callers at most one gets the row back (docs/architecture/spec/postgres.md#postgres-5-5, T8).
     * $3 is the coordinator clock reading, kept as `consumed_at` so the recovery list knows how long ago it ran.
     */
    markConsumed: `update ${table}
set status = 'consumed', consumed_by_execution_id = $2, consumed_at = $3::timestamptz
where id = $1 and status = 'approved' and consumed_by_execution_id is null
returning ${PROJECTION}`,

    list: (filter: ApprovalListFilter, now: string) => listStatement(table, filter, now),

    /**
     * Compare-and-set on the `notices` column (escalation and expiry warnings): $1 id, $2 the notice key, $3 the
     * sweep's instant (the expiry guard, strict), $4 the same instant as text, kept as the claim's. Only a pending, unexpired record that has not got the key
     * yet matches, so of concurrent claimers exactly one gets a row back (under READ COMMITTED the waiting update
     * re-checks its WHERE on the committed row). Touches no other column. A value that is not an object (a row edited to
     * an array or a scalar) counts as no claims and is replaced: `||` would append to it and `?` never find the key, so
     * every sweep would send the notice again (SI-4).
     */
    claimNotice: `update ${table}
set notices = (case when jsonb_typeof(notices) = 'object' then notices else '{}'::jsonb end) || jsonb_build_object($2::text, $4::text)
where id = $1 and status = 'pending' and expires_at >= $3::timestamptz
  and not ((case when jsonb_typeof(notices) = 'object' then notices else '{}'::jsonb end) ? $2::text)
returning id`,
  };
}

/**
 * The same compare-and-set, still one statement, also sending `pg_notify($n, id)` for a record it took out of
 * `pending` (a quorum vote that leaves it pending decides nothing). NOTIFY is delivered at commit, so a decision rolled
 * back notifies nobody; the payload is the id alone. An id too long for a NOTIFY payload (8000 bytes) is not sent
 * rather than failing the decision (docs/reference/postgres.md#decisions-across-instances).
 */
function notifyDecided(update: string, channelParam: number): string {
  return `with decided as (${update})
select decided.*, case when decided.status <> 'pending' and octet_length(decided.id) < 8000 then pg_notify($${channelParam}::text, decided.id) end is not null as notified
from decided`;
}

/**
 * One of a small fixed set of statement texts, chosen by which filters are present; every value
 * travels as a parameter (docs/architecture/spec/postgres.md#postgres-5-3). `expired` and `pending` are split on the clock
 * reading so lazy expiry also holds in SQL.
 */
function listStatement(table: string, filter: ApprovalListFilter, now: string): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;

  if (filter.capabilityId !== undefined) where.push(`capability_id = ${param(filter.capabilityId)}`);
  if (filter.actorId !== undefined) where.push(`actor ->> 'id' = ${param(filter.actorId)}`);
  if (filter.status === "expired") where.push(`status = 'pending' and expires_at < ${param(now)}::timestamptz`);
  else if (filter.status === "pending") where.push(`status = 'pending' and expires_at >= ${param(now)}::timestamptz`);
  else if (filter.status !== undefined) where.push(`status = ${param(filter.status)}`);

  const clause = where.length === 0 ? "" : ` where ${where.join(" and ")}`;
  return { sql: `select ${PROJECTION} from ${table}${clause} order by requested_at, id`, params };
}
