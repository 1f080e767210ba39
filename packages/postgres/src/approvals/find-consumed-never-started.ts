import type { ApprovalRecord } from "@orpc-agent/core";
import { DEFAULT_APPROVALS_TABLE, DEFAULT_AUDIT_TABLE } from "../ddl.js";
import { epochMs, instantColumn } from "../encoding.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { executionBoundMs, resolveRuntimeDefaults, type RecoveryRuntimeDefaults } from "./execution-bound.js";
import { recordFromRow } from "./record.js";
import { PROJECTION } from "./statements.js";

/** Options of {@link findConsumedNeverStarted}. */
export interface FindConsumedNeverStartedOptions {
  query: PgQuery;
  /** Default `"orpc_agent_approvals"`. */
  approvalsTable?: string;
  /** Default `"orpc_agent_audit_events"`: the table `createPgAuditSink` writes. */
  auditTable?: string;
  /**
   * Also list the records whose execution may still be running, flagged `possiblyRunning: true`. Never re-request
   * one of those: its handler may be about to run, or running.
   * @default false
   */
  includePossiblyRunning?: boolean;
  /** The runtime's `defaults` (`timeoutMs`, `policyTimeoutMs`), when they are not core's. */
  defaults?: RecoveryRuntimeDefaults;
  /**
   * Added to every execution's time bound: clock skew between the runtime's host and this one, and the
   * `capability.started` write itself (a batched audit sink holds it up to `flushMs`).
   * @default 60_000
   */
  marginMs?: number;
  /** The clock the bounds are compared with. @default () => new Date() */
  now?: () => Date;
}

/** A consumed record whose execution left no sign that its procedure ran. */
export type ConsumedNeverStarted = ApprovalRecord & {
  /** When it was consumed; `undefined` for a record consumed before the `consumed_at` column existed. */
  consumedAt: Date | undefined;
  /**
   * Until when the consuming execution could still be running: consumption (or, without `consumedAt`, the
   * approval's expiry) plus the execution's time bound and `marginMs`. `undefined` when its end is recorded (a
   * terminal audit event from before the procedure: a denial, a failure or a cancellation).
   */
  possiblyRunningUntil: Date | undefined;
  /** `now` is before `possiblyRunningUntil`. Listed only with `includePossiblyRunning`; never re-request one. */
  possiblyRunning: boolean;
};

const DEFAULT_MARGIN_MS = 60_000;
// The largest instant a Date holds: a bound past it means "for all practical purposes, forever".
const MAX_INSTANT_MS = 8.64e15;

/**
 * Approvals consumed by an execution that shows no sign of having run its procedure: no `capability.started`,
 * `capability.retried` or `capability.completed` row, and no failure or cancellation with an `effectStatus`. Either
 * the process died after consuming (nothing ran, and nothing will), or the execution is still on its way: its
 * started row not written yet, or written late by a batched sink. The second kind is told apart by time: an
 * execution cannot go on longer than its capability's attempts allow (`timeoutMs` × attempts, the backoffs and the
 * execution policies' batch) plus `marginMs` after consumption. Records within that bound are left out unless
 * `includePossiblyRunning` is set, and then flagged `possiblyRunning`; an execution whose end was audited before
 * its procedure ran is never possibly running. Records already re-requested (a `<id>.r` approval exists) are left out.
 *
 * Each record names its `consumedByExecutionId`; an operator re-requests one with
 * `runtime.approvals.reRequest(id, { operator, reason })`.
 *
 * @example
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import { findConsumedNeverStarted, type PgQuery } from "@orpc-agent/postgres";
 * declare const query: PgQuery, runtime: AgentRuntime, operator: Actor;
 * for (const record of await findConsumedNeverStarted({ query })) {
 *   await runtime.approvals.reRequest(record.id, { operator, reason: `execution ${record.consumedByExecutionId} never started` });
 * }
 */
export async function findConsumedNeverStarted(options: FindConsumedNeverStartedOptions): Promise<ConsumedNeverStarted[]> {
  const {
    query,
    approvalsTable = DEFAULT_APPROVALS_TABLE,
    auditTable = DEFAULT_AUDIT_TABLE,
    includePossiblyRunning = false,
    marginMs = DEFAULT_MARGIN_MS,
    now = () => new Date(),
  } = options ?? ({} as FindConsumedNeverStartedOptions);
  assertQuery(query);
  assertTableName(approvalsTable);
  assertTableName(auditTable);
  if (typeof includePossiblyRunning !== "boolean") throw new TypeError("includePossiblyRunning must be a boolean");
  if (typeof marginMs !== "number" || !Number.isFinite(marginMs) || marginMs < 0) {
    throw new TypeError(`marginMs must be a finite number >= 0 (got ${String(marginMs)})`);
  }
  if (typeof now !== "function") throw new TypeError("now must be a function returning a Date");
  const defaults = resolveRuntimeDefaults(options.defaults);

  const { rows } = await runQuery(query, listSql(approvalsTable, auditTable), []);
  const at = now().getTime();
  const found: ConsumedNeverStarted[] = [];
  for (const row of rows) {
    const record = recordFromRow(row, null);
    const consumedAt = row.consumed_at_ms === null || row.consumed_at_ms === undefined ? undefined : instantColumn(row.consumed_at_ms, "consumed_at");
    let possiblyRunningUntil: Date | undefined;
    // Read as a number, like every other column (docs/architecture/spec/postgres.md#postgres-3-3); anything else counts as not ended.
    if (Number(row.ended) !== 1) {
      // Without a consumption instant, the latest it can have been consumed is when the approval expired (R3).
      const from = (consumedAt ?? record.expiresAt).getTime();
      possiblyRunningUntil = new Date(Math.min(from + executionBoundMs(record, defaults) + marginMs, MAX_INSTANT_MS));
    }
    const possiblyRunning = possiblyRunningUntil !== undefined && at < possiblyRunningUntil.getTime();
    if (possiblyRunning && !includePossiblyRunning) continue;
    found.push(Object.assign(record, { consumedAt, possiblyRunningUntil, possiblyRunning }));
  }
  return found;
}

/**
 * Events that show the procedure was called: started, a retry, completion, or a failure or cancellation that
 * reports attempts or an unknown effect (core writes `effectStatus` exactly when an attempt began). A failure
 * whose `attempts` is missing counts as having run, so an unreadable row never offers a re-request.
 */
const RAN = `(e.type in ('capability.started', 'capability.retried', 'capability.completed')
    or (e.type = 'capability.failed' and ((e.data ->> 'attempts') is distinct from '0' or e.data ->> 'effectStatus' is not null or e.data ->> 'executedBeforeFailure' is not null))
    or (e.type = 'capability.cancelled' and e.data ->> 'effectStatus' is not null))`;

function listSql(approvalsTable: string, auditTable: string): string {
  return `select ${PROJECTION}, ${epochMs("consumed_at")},
  (exists (select 1 from ${auditTable} e where e.execution_id = a.consumed_by_execution_id
    and e.type in ('capability.denied', 'capability.failed', 'capability.cancelled')))::int as ended
from ${approvalsTable} a
where a.status = 'consumed'
  and not exists (select 1 from ${auditTable} e where e.execution_id = a.consumed_by_execution_id and ${RAN})
  and not exists (select 1 from ${approvalsTable} r where r.id = a.id || '.r')
order by a.requested_at, a.id`;
}
