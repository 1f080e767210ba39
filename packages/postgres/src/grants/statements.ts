import type { GrantListFilter } from "@orpc-agent/core";
import { epochMs, float8Bits } from "../encoding.js";

// Every statement the grant store issues (SI-13): one statement each, positional parameters, no lock, no transaction
// and no database clock (docs/architecture/spec/postgres.md#postgres-1, docs/architecture/spec/postgres.md#postgres-5-1), like the approval statements.

/** Every column: jsonb as text, bigint as text, float8 as its bits, instants as epoch milliseconds. */
export const GRANT_PROJECTION = [
  "id",
  "capability_id",
  "definition_digest",
  "actor::text as actor",
  "surface",
  "scope",
  "conversation_id",
  "types::text as types",
  "conditions::text as conditions",
  "uses::text as uses",
  "uses_left::text as uses_left",
  "budget_path",
  float8Bits("budget_max"),
  float8Bits("budget_spent"),
  "issuers::text as issuers",
  "approval_id",
  epochMs("issued_at"),
  epochMs("expires_at"),
  "seal",
  "revoked_by::text as revoked_by",
  epochMs("revoked_at"),
  "revoke_reason",
].join(", ");

// 2^1022: below it, spent + amount cannot overflow float8 (PostgreSQL raises where JS answers Infinity).
const LARGE = String(2 ** 1022);
// 2^-1021: halving anything smaller would underflow (PostgreSQL raises); next to a value >= 2^1022 it adds nothing anyway.
const TINY = String(2 ** -1021);
const half = (value: string) => `(case when ${value} < ${TINY} then 0::float8 else ${value} / 2 end)`;

/**
 * Whether the amount `$3` fits the budget, `spent + amount <= max` in double precision exactly as core computes it.
 * Near the top of the float8 range the sum is compared halved: halving is exact there, and an overflowing sum compares
 * greater than any max, as JS's Infinity does. A NULL amount (missing or invalid) never fits.
 */
const FITS = `case when $3::float8 is null then false
    when budget_spent >= ${LARGE} or $3::float8 >= ${LARGE} then ${half("budget_spent")} + ${half("$3::float8")} <= ${half("budget_max")}
    else budget_spent + $3::float8 <= budget_max end`;

/** Status `active` on the clock reading `$n`: not revoked, a use and some budget left, not past `expires_at` (strict). */
const active = (now: string) =>
  `(revoked_at is null and uses_left > 0 and (budget_max is null or budget_spent < budget_max) and expires_at >= ${now}::timestamptz)`;

export function grantStatements(table: string) {
  return {
    /**
     * $1 id, $2 capability_id, $3 definition_digest, $4 actor, $5 surface, $6 scope, $7 conversation_id, $8 types,
     * $9 conditions, $10 uses (also uses_left), $11 budget_path, $12 budget_max (spent starts at 0 with a budget),
     * $13 issuers, $14 approval_id, $15 issued_at, $16 expires_at, $17 seal; a duplicate id returns zero rows.
     */
    create: `insert into ${table} (id, capability_id, definition_digest, actor, surface, scope, conversation_id, types, conditions, uses, uses_left, budget_path, budget_max, budget_spent, issuers, approval_id, issued_at, expires_at, seal)
values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::jsonb, $9::jsonb, $10::bigint, $10::bigint, $11, $12::float8, case when $12::float8 is null then null else 0::float8 end, $13::jsonb, $14, $15::timestamptz, $16::timestamptz, $17)
on conflict (id) do nothing
returning ${GRANT_PROJECTION}`,

    get: `select ${GRANT_PROJECTION} from ${table} where id = $1`,

    /**
     * The atomic check-and-consume, one round trip: $1 id, $2 the runtime's clock reading, $3 the amount (NULL when
     * missing or invalid; ignored without a budget). Under READ COMMITTED concurrent uses serialize on the row lock
     * and each waiting one re-checks this WHERE against the committed row, so uses never go below 0 nor spending past
     * max; a revoke is an UPDATE of the same row, so once it commits no use matches.
     */
    use: `update ${table}
set uses_left = uses_left - 1, budget_spent = budget_spent + $3::float8
where id = $1 and ${active("$2")}
  and (budget_max is null or ${FITS})
returning ${GRANT_PROJECTION}`,

    /** $1 id, $2 by, $3 at, $4 reason: the first revocation is kept (the SET reads the row as it was). */
    revoke: `update ${table}
set revoked_by = coalesce(revoked_by, $2::jsonb), revoked_at = coalesce(revoked_at, $3::timestamptz),
  revoke_reason = case when revoked_at is null then $4::text else revoke_reason end
where id = $1
returning ${GRANT_PROJECTION}`,

    list: (filter: GrantListFilter, now: string) => listStatement(table, filter, now),
  };
}

/**
 * A small fixed set of statement texts, chosen by which filters are present; values travel as parameters. Ids sort
 * in the "C" collation, code-point order, as core's in-memory store sorts them (for the ASCII ids the runtime mints).
 */
function listStatement(table: string, filter: GrantListFilter, now: string): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;

  if (filter.capabilityId !== undefined) where.push(`capability_id = ${param(filter.capabilityId)}`);
  if (filter.actorId !== undefined) where.push(`actor ->> 'id' = ${param(filter.actorId)}`);
  if (filter.active === true) where.push(`coalesce(${active(param(now))}, false)`);
  else if (filter.active === false) where.push(`not coalesce(${active(param(now))}, false)`);

  const clause = where.length === 0 ? "" : ` where ${where.join(" and ")}`;
  return { sql: `select ${GRANT_PROJECTION} from ${table}${clause} order by issued_at, id collate "C"`, params };
}
