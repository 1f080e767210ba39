import type { AuditChainRecord, AuditCheckpoint, AuditTrailEntry } from "@orpc-agent/core";
import { epochMs, instantColumn, jsonColumn } from "../encoding.js";

// Rows back to the records their hashes were taken over (ADR-025); the CLI reads the same projection.
export const EVENT_SELECT = `select id::text as id, chain_id, seq::text as seq_text, prev_hash, hash, receipt_id, type, ${epochMs("at")}, surface, actor_id, actor_kind, execution_id, capability_id, correlation_id, input_hash, data::text as data`;
export const CHECKPOINT_SELECT = `select id::text as id, chain_id, seq::text as seq_text, hash, ${epochMs("at")}, key_id, lost::text as lost, signature`;

export function recordFromRow(row: Record<string, unknown>): AuditTrailEntry<AuditChainRecord> {
  const record: AuditTrailEntry<AuditChainRecord> = {
    chainId: String(row.chain_id),
    seq: Number(row.seq_text),
    prev: String(row.prev_hash),
    hash: String(row.hash),
    type: String(row.type),
    timestamp: instantColumn(row.at_ms, "at").toISOString(),
    surface: String(row.surface),
    actor: { id: String(row.actor_id), kind: String(row.actor_kind) as AuditChainRecord["actor"]["kind"] },
    data: jsonColumn(row.data, "data"),
    ref: `row id ${String(row.id)}`,
  };
  if (row.execution_id != null) record.executionId = String(row.execution_id);
  if (row.capability_id != null) record.capabilityId = String(row.capability_id);
  if (row.correlation_id != null) record.correlationId = String(row.correlation_id);
  if (row.input_hash != null) record.inputHash = String(row.input_hash);
  if (row.receipt_id != null) record.receiptId = String(row.receipt_id);
  return record;
}

export function checkpointFromRow(row: Record<string, unknown>): AuditTrailEntry<AuditCheckpoint> {
  return {
    chainId: String(row.chain_id),
    seq: Number(row.seq_text),
    hash: String(row.hash),
    at: instantColumn(row.at_ms, "at").toISOString(),
    keyId: String(row.key_id),
    lost: (jsonColumn(row.lost, "lost") ?? []) as AuditCheckpoint["lost"],
    signature: String(row.signature),
    ref: `checkpoint id ${String(row.id)}`,
  };
}
