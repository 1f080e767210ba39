import { DEFAULT_AUDIT_TABLE } from "../ddl.js";
import { indexPrefix } from "../table-name.js";

/** The checkpoint table of an audit table: `<table>_checkpoints` unless the sink names another. */
export function defaultCheckpointTable(table: string): string {
  return `${table}_checkpoints`;
}

/**
 * The hash-chain DDL for a (validated) audit table (ADR-025): additive columns on the audit table, so a table created
 * by an earlier release keeps its rows (their chain columns stay NULL), and the signed-checkpoint table.
 * Same rules as every DDL here: `;`-terminated statements, none containing another `;`, all idempotent.
 */
export function auditChainDdl(table: string, checkpointTable: string = defaultCheckpointTable(table)): string {
  const index = indexPrefix(table);
  const checkpointIndex = indexPrefix(checkpointTable);
  return `alter table ${table} add column if not exists chain_id text;
alter table ${table} add column if not exists seq bigint;
alter table ${table} add column if not exists prev_hash text;
alter table ${table} add column if not exists hash text;
alter table ${table} add column if not exists receipt_id text;
create index if not exists ${index}_chain_idx
  on ${table} (chain_id, seq) where chain_id is not null;
create index if not exists ${index}_receipt_idx
  on ${table} (receipt_id) where receipt_id is not null;
create table if not exists ${checkpointTable} (
  id        bigint      generated always as identity primary key,
  chain_id  text        not null,
  seq       bigint      not null,
  hash      text        not null,
  at        timestamptz not null,
  key_id    text        not null,
  lost      jsonb       not null,
  signature text        not null
);
create index if not exists ${checkpointIndex}_chain_idx
  on ${checkpointTable} (chain_id, seq);
`;
}

/**
 * The hash-chain DDL for the default audit table `orpc_agent_audit_events` and its checkpoint table
 * `orpc_agent_audit_events_checkpoints` (ADR-025). Apply it after `AUDIT_DDL`; re-applying is a no-op.
 */
export const AUDIT_CHAIN_DDL: string = auditChainDdl(DEFAULT_AUDIT_TABLE);
