import type { AuditChainRecord, AuditCheckpoint, AuditTrailEntry } from "@orpc-agent/core";
import { DEFAULT_AUDIT_TABLE } from "../ddl.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { defaultCheckpointTable } from "./chain-ddl.js";
import { checkpointFromRow, CHECKPOINT_SELECT, EVENT_SELECT, recordFromRow } from "./trail-rows.js";

export interface ReadPgAuditTrailOptions {
  query: PgQuery;
  /** Default `"orpc_agent_audit_events"`. */
  table?: string;
  /** Default `<table>_checkpoints`. */
  checkpointTable?: string;
  /** Only this chain (a receipt's chain), else every chain. */
  chainId?: string;
}

export type PgAuditTrail = {
  events: AuditTrailEntry<AuditChainRecord>[];
  checkpoints: AuditTrailEntry<AuditCheckpoint>[];
  /** Rows written without a chain (before `audit.chain`, or by an unchained runtime). */
  unchained: number;
};

/**
 * Reads a chained audit table and its checkpoints, ready for core's `verifyAuditTrail` (ADR-025), for instance to show
 * "verified" next to a receipt. Two statements, ordered by chain and seq.
 */
export async function readPgAuditTrail(options: ReadPgAuditTrailOptions): Promise<PgAuditTrail> {
  const { query, table = DEFAULT_AUDIT_TABLE, chainId } = options;
  assertQuery(query);
  assertTableName(table);
  const checkpointTable = options.checkpointTable ?? defaultCheckpointTable(table);
  assertTableName(checkpointTable);
  const where = chainId === undefined ? "chain_id is not null" : "chain_id = $1";
  const params = chainId === undefined ? [] : [chainId];
  const events = await runQuery(query, `${EVENT_SELECT} from ${table} where ${where} order by chain_id, seq, id`, params);
  const checkpoints = await runQuery(query, `${CHECKPOINT_SELECT} from ${checkpointTable} where ${where} order by chain_id, seq, id`, params);
  const unchained =
    chainId === undefined ? Number((await runQuery(query, `select count(*)::int as n from ${table} where chain_id is null`, [])).rows[0]?.n ?? 0) : 0;
  return { events: events.rows.map(recordFromRow), checkpoints: checkpoints.rows.map(checkpointFromRow), unchained };
}
