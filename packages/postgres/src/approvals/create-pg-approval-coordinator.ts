import type { ApprovalCoordinator, ApprovalListFilter, ApprovalRecord } from "@orpc-agent/core";
import { DEFAULT_APPROVALS_TABLE } from "../ddl.js";
import { instantParam, jsonParam } from "../encoding.js";
import { assertQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { assertDecision } from "./decision.js";
import { recordFromRow } from "./record.js";
import { approvalStatements } from "./statements.js";

export interface PgApprovalCoordinatorOptions {
  query: PgQuery;
  /** Default `"orpc_agent_approvals"`; may be schema-qualified (`"app.approvals"`). */
  table?: string;
  /** The coordinator clock; pass the runtime's `now`. Default `() => new Date()`. */
  now?: () => Date;
}

/**
 * An `ApprovalCoordinator` whose records survive restarts, over a table the application owns
 * (postgres.md §5). Every transition is one compare-and-set statement; expiry is computed lazily
 * on this coordinator's clock, never the database's. Construction touches no database.
 *
 * @example
 * const coordinator = createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params), now });
 * const runtime = createAgentRuntime({ governance, now, approvals: { coordinator } });
 */
export function createPgApprovalCoordinator(
  options: PgApprovalCoordinatorOptions,
): ApprovalCoordinator & { list(filter?: ApprovalListFilter): Promise<ApprovalRecord[]> } {
  const { query, table = DEFAULT_APPROVALS_TABLE, now = () => new Date() } = options ?? ({} as PgApprovalCoordinatorOptions);
  assertQuery(query);
  assertTableName(table);
  if (typeof now !== "function") throw new TypeError("now must be a function returning a Date");
  const sql = approvalStatements(table);

  /** Picks the failure message after a compare-and-set matched nothing; the outcome is already settled (§5.3). */
  const diagnose = async (id: string, at: Date, describe: (record: ApprovalRecord) => string): Promise<never> => {
    const { rows } = await query(sql.get, [id]);
    if (rows.length === 0) throw new Error(`Approval "${id}" was not found`);
    throw new Error(describe(recordFromRow(rows[0]!, at)));
  };

  return {
    async create(request) {
      const { rows } = await query(sql.create, [
        request.id,
        request.capabilityId,
        request.surface,
        jsonParam(request.actor),
        jsonParam(request.input),
        request.inputHash,
        jsonParam(request.reasons),
        jsonParam(request.types),
        request.risk,
        request.sideEffect,
        instantParam(request.requestedAt),
        instantParam(request.expiresAt),
        jsonParam(request.submittedInput),
      ]);
      if (rows.length === 0) throw new Error(`Approval "${request.id}" already exists`);
      // A new record is reported as stored: `pending` (postgres.md §5.3).
      return recordFromRow(rows[0]!, null);
    },

    async get(id) {
      const at = now();
      const { rows } = await query(sql.get, [id]);
      return rows.length === 0 ? null : recordFromRow(rows[0]!, at);
    },

    async decide(id, decision) {
      assertDecision(decision);
      // Read once: the same instant is decidedAt, the expiry guard and the mapping reference (§5.1).
      const at = now();
      const { rows } = await query(sql.decide, [
        id,
        decision.status,
        jsonParam(decision.approver),
        instantParam(at),
        decision.comment ?? null,
      ]);
      if (rows.length > 0) return recordFromRow(rows[0]!, at);
      return diagnose(id, at, (record) => `Approval "${id}" is not pending (status: ${record.status})`);
    },

    async markConsumed(id, executionId) {
      // The consuming execution is the evidence of T8; a record must never read consumed by nobody.
      if (typeof executionId !== "string" || executionId === "") {
        throw new Error(`Approval "${id}" cannot be consumed without an execution id`);
      }
      const at = now();
      const { rows } = await query(sql.markConsumed, [id, executionId]);
      if (rows.length > 0) return recordFromRow(rows[0]!, at);
      return diagnose(id, at, (record) => {
        const by = record.consumedByExecutionId === undefined ? "" : `, consumed by ${record.consumedByExecutionId}`;
        return `Approval "${id}" cannot be consumed (status: ${record.status}${by})`;
      });
    },

    async list(filter = {}) {
      const at = now();
      const statement = sql.list(filter, instantParam(at));
      const { rows } = await query(statement.sql, statement.params);
      return rows.map((row) => recordFromRow(row, at));
    },
  };
}
