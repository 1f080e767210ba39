import {
  approvalAlreadyApprovedError,
  approvalNotFoundError,
  approvalNotPendingError,
  readApprovalDecision,
  type ApprovalCoordinator,
  type ApprovalDecision,
  type ApprovalListFilter,
  type ApprovalRecord,
  type GrantStore,
} from "@orpc-agent/core";
import { DEFAULT_APPROVALS_TABLE, DEFAULT_GRANTS_TABLE } from "../ddl.js";
import { createPgGrantStore } from "../grants/pg-grant-store.js";
import { pgDecisionChannel } from "../notify/decision-channel.js";
import { assertChannelName } from "../notify/listen.js";
import { instantParam, jsonParam } from "../encoding.js";
import { assertQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { recordFromRow } from "./record.js";
import { approvalStatements } from "./statements.js";

/** Options of {@link createPgApprovalCoordinator}. */
export interface PgApprovalCoordinatorOptions {
  query: PgQuery;
  /**
   * The approvals table; may be schema-qualified (`"app.approvals"`).
   * @default "orpc_agent_approvals"
   */
  table?: string;
  /**
   * The standing-grants table (SI-13); may be schema-qualified. `APPROVALS_DDL` creates it under the default name.
   * @default "orpc_agent_grants"
   */
  grantsTable?: string;
  /**
   * The coordinator clock; pass the runtime's `now`.
   * @default () => new Date()
   */
  now?: () => Date;
  /**
   * The channel each decision is NOTIFYed on, with the approval id as payload, in the decide statement itself;
   * `createPgDecisionFeed` listens there. `false` sends nothing.
   * @default pgDecisionChannel(table), "orpc_agent_approvals_decided" for the default table
   */
  decisionChannel?: string | false;
}

/**
 * An `ApprovalCoordinator` whose records survive restarts, over a table the application owns
 * (docs/architecture/spec/postgres.md#postgres-5). Every transition is one compare-and-set statement; expiry is computed lazily
 * on this coordinator's clock, never the database's. Construction touches no database. It also keeps standing grants
 * (SI-13) in `grantsTable`: each use of a grant is one conditional UPDATE, one round trip.
 *
 * @example
 * import { createAgentRuntime, type AgentGovernance } from "@orpc-agent/core";
 * import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
 * import pg from "pg";
 * declare const pool: pg.Pool, governance: AgentGovernance, now: () => Date;
 * const coordinator = createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params), now });
 * const runtime = createAgentRuntime({ governance, now, approvals: { coordinator } });
 */
export function createPgApprovalCoordinator(
  options: PgApprovalCoordinatorOptions,
): ApprovalCoordinator &
  GrantStore & { list(filter?: ApprovalListFilter): Promise<ApprovalRecord[]>; claimNotice(id: string, notice: string, at: Date): Promise<boolean> } {
  const { query, table = DEFAULT_APPROVALS_TABLE, grantsTable = DEFAULT_GRANTS_TABLE, now = () => new Date() } = options ?? ({} as PgApprovalCoordinatorOptions);
  assertQuery(query);
  assertTableName(table);
  assertTableName(grantsTable);
  if (typeof now !== "function") throw new TypeError("now must be a function returning a Date");
  const channel = options.decisionChannel === false ? undefined : (options.decisionChannel ?? pgDecisionChannel(table));
  if (channel !== undefined) assertChannelName(channel, "decisionChannel");
  // The channel travels as the last parameter of decide and approve, only when notifying.
  const notifyParam: string[] = channel === undefined ? [] : [channel];
  const sql = approvalStatements(table, channel);
  const grants = createPgGrantStore(query, grantsTable, now);

  /** Picks the failure message after a compare-and-set matched nothing; the outcome is already settled (docs/architecture/spec/postgres.md#postgres-5-3). */
  const diagnose = async (id: string, at: Date, describe: (record: ApprovalRecord) => string): Promise<never> => {
    const { rows } = await query(sql.get, [id]);
    if (rows.length === 0) throw new Error(`Approval "${id}" was not found`);
    throw new Error(describe(recordFromRow(rows[0]!, at)));
  };

  return {
    async create(request) {
      const quorum = request.quorum;
      if (quorum !== undefined && !(typeof quorum === "number" && Number.isSafeInteger(quorum) && quorum >= 1)) {
        throw new Error(`Invalid quorum ${String(quorum)} for approval "${request.id}": an integer >= 1`);
      }
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
        // A quorum of 1 is the single-approver default, stored as NULL like records written before quorums.
        quorum === undefined || quorum === 1 ? null : String(quorum),
        optionalText(request.seal),
        optionalText(request.definitionDigest),
        optionalText(request.manifestDigest),
        request.definition === undefined ? null : jsonParam(request.definition),
        optionalText(request.conversationId),
      ]);
      if (rows.length === 0) throw new Error(`Approval "${request.id}" already exists`);
      // A new record is reported as stored: `pending` (docs/architecture/spec/postgres.md#postgres-5-3).
      return recordFromRow(rows[0]!, null);
    },

    async get(id) {
      const at = now();
      const { rows } = await query(sql.get, [id]);
      return rows.length === 0 ? null : recordFromRow(rows[0]!, at);
    },

    async decide(id, given) {
      // Core's typed guards, before any SQL, as every store runs them (docs/architecture/spec/postgres.md#postgres-5-3),
      // on the decision read once: the row keeps the approver and status that were checked (SI-4).
      const decision = readApprovalDecision(given);
      // Read once: the same instant is decidedAt, the expiry guard and the mapping reference (docs/architecture/spec/postgres.md#postgres-5-1).
      const at = now();
      const { rows } =
        decision.status === "rejected"
          ? await query(sql.decide, [id, decision.status, jsonParam(decision.approver), instantParam(at), decision.comment ?? null, optionalText(decision.seal), ...notifyParam])
          : await query(sql.approve, [
              id,
              jsonParam(decision.approver),
              instantParam(at),
              decision.comment ?? null,
              jsonParam(vote(decision, at)),
              decision.approver.id,
              optionalText(decision.seal),
              // Approve with changes: stored beside the request's input and hash, never over them.
              decision.input === undefined ? null : jsonParam(decision.input),
              optionalText(decision.inputHash),
              ...notifyParam,
            ]);
      if (rows.length > 0) return recordFromRow(rows[0]!, at);
      // Typed like every store's refusals (core's decide-refusals); the read only picks which one.
      const { rows: found } = await query(sql.get, [id]);
      if (found.length === 0) throw approvalNotFoundError(id);
      const record = recordFromRow(found[0]!, at);
      if (record.status === "pending" && record.approvals?.some((v) => v.approver.id === decision.approver.id)) {
        throw approvalAlreadyApprovedError(id, decision.approver.id);
      }
      throw approvalNotPendingError(id, record.status);
    },

    async markConsumed(id, executionId) {
      // The consuming execution is the evidence of T8; a record must never read consumed by nobody.
      if (typeof executionId !== "string" || executionId === "") {
        throw new Error(`Approval "${id}" cannot be consumed without an execution id`);
      }
      const at = now();
      const { rows } = await query(sql.markConsumed, [id, executionId, instantParam(at)]);
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
      // A row edited into something no record can be read from (votes that are not a list) is left out, not thrown:
      // one such row must not hide every other approval from the page and the sweep. `get` still refuses it, so
      // nobody can decide or resume it (SI-4).
      return rows.flatMap((row) => {
        try {
          return [recordFromRow(row, at)];
        } catch {
          return [];
        }
      });
    },

    async claimNotice(id, notice, at) {
      if (typeof id !== "string" || typeof notice !== "string") return false;
      // The sweep's instant, as decide's clock reading: the expiry guard is strict on it.
      const instant = instantParam(at);
      const { rows } = await query(sql.claimNotice, [id, notice, instant, instant]);
      return rows.length > 0;
    },

    createGrant: grants.createGrant,
    getGrant: grants.getGrant,
    listGrants: grants.listGrants,
    useGrant: grants.useGrant,
    revokeGrant: grants.revokeGrant,
  };
}

/** One approval as the `approvals` column keeps it: the instant as ISO text, the comment and seal only when given. */
function vote(decision: ApprovalDecision, at: Date): { approver: unknown; at: string; comment?: string; seal?: string } {
  const entry: { approver: unknown; at: string; comment?: string; seal?: string } = { approver: decision.approver, at: instantParam(at) };
  if (decision.comment !== undefined) entry.comment = decision.comment;
  if (typeof decision.seal === "string") entry.seal = decision.seal;
  return entry;
}

/** Seals and digests are opaque text; anything else is stored as NULL rather than coerced. */
function optionalText(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
