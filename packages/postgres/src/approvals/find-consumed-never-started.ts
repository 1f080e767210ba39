import type { ApprovalRecord } from "@orpc-agent/core";
import { DEFAULT_APPROVALS_TABLE, DEFAULT_AUDIT_TABLE } from "../ddl.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { recordFromRow } from "./record.js";
import { PROJECTION } from "./statements.js";

export interface FindConsumedNeverStartedOptions {
  query: PgQuery;
  /** Default `"orpc_agent_approvals"`. */
  approvalsTable?: string;
  /** Default `"orpc_agent_audit_events"`: the table `createPgAuditSink` writes. */
  auditTable?: string;
}

/**
 * Approvals consumed by an execution that has no `capability.started` row: the process died between consumption
 * and the started write, so the handler never ran. Each record names its `consumedByExecutionId`; an operator
 * re-requests it with `runtime.approvals.reRequest(id, { operator, reason })`. Records already re-requested
 * (a `<id>.r` approval exists) are left out. An execution in flight at the moment of the query can appear for a
 * few milliseconds: act on a record that is still listed on a second look.
 *
 * @example
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import { findConsumedNeverStarted, type PgQuery } from "@orpc-agent/postgres";
 * declare const query: PgQuery, runtime: AgentRuntime, operator: Actor;
 * for (const record of await findConsumedNeverStarted({ query })) {
 *   await runtime.approvals.reRequest(record.id, { operator, reason: `execution ${record.consumedByExecutionId} never started` });
 * }
 */
export async function findConsumedNeverStarted(options: FindConsumedNeverStartedOptions): Promise<ApprovalRecord[]> {
  const { query, approvalsTable = DEFAULT_APPROVALS_TABLE, auditTable = DEFAULT_AUDIT_TABLE } = options ?? ({} as FindConsumedNeverStartedOptions);
  assertQuery(query);
  assertTableName(approvalsTable);
  assertTableName(auditTable);
  const sql = `select ${PROJECTION} from ${approvalsTable} a
where a.status = 'consumed'
  and not exists (select 1 from ${auditTable} e where e.execution_id = a.consumed_by_execution_id and e.type = 'capability.started')
  and not exists (select 1 from ${approvalsTable} r where r.id = a.id || '.r')
order by a.requested_at, a.id`;
  const { rows } = await runQuery(query, sql, []);
  return rows.map((row) => recordFromRow(row, null));
}
