import { readFileSync } from "node:fs";
import type { AuditChainRecord, AuditCheckpoint, AuditTrailEntry } from "@orpc-agent/core";
import { exportReplacer, parseJsonColumn } from "./json-column.js";
import type { PgLikeClient } from "./load-pg.js";

export type Trail = {
  events: AuditTrailEntry<AuditChainRecord>[];
  checkpoints: AuditTrailEntry<AuditCheckpoint>[];
  unchained: number;
};

// Rows back to hashed records, projected as @orpc-agent/postgres's readPgAuditTrail does (jsonb as text, instants as
// epoch ms). Writers store whole milliseconds: an instant with a sub-millisecond part was edited, so it is also read
// exactly (`at_exact`) and can no longer round back to the value that was hashed.
const EXACT_AT = `case when date_trunc('milliseconds', at) = at then null else to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end as at_exact`;
const EVENT_SELECT = `select id::text as id, chain_id, seq::text as seq_text, prev_hash, hash, receipt_id, type, (extract(epoch from at) * 1000)::float8 as at_ms, ${EXACT_AT}, surface, actor_id, actor_kind, execution_id, capability_id, correlation_id, input_hash, data::text as data`;
const CHECKPOINT_SELECT = `select id::text as id, chain_id, seq::text as seq_text, hash, (extract(epoch from at) * 1000)::float8 as at_ms, ${EXACT_AT}, key_id, lost::text as lost, signature`;

/**
 * Columns as stored, never coerced into a plausible value: SQL NULL stays `null` (never the text "null" or seq 0),
 * and an instant that is NULL, infinite or not whole milliseconds reads as text no writer produces. Anyone with
 * write access can put anything in these rows; the verifier, not this read, decides what it means.
 */
const text = (value: unknown): string => (value === null || value === undefined ? (null as unknown as string) : String(value));
const seqOf = (value: unknown): number => (value === null || value === undefined ? (null as unknown as number) : Number(value));
function instant(row: Record<string, unknown>): string {
  if (row.at_exact !== null && row.at_exact !== undefined) return String(row.at_exact);
  const ms = row.at_ms === null || row.at_ms === undefined ? Number.NaN : Number(row.at_ms);
  const date = new Date(Math.round(ms));
  return Number.isNaN(date.getTime()) ? `(not an instant: ${String(row.at_ms)})` : date.toISOString();
}

/** Reads every chained row and checkpoint: three statements, no transaction, nothing written. */
export async function readPostgresTrail(client: PgLikeClient, table: string, checkpointTable: string): Promise<Trail> {
  const events = await client.query(`${EVENT_SELECT} from ${table} where chain_id is not null order by chain_id, seq, id`);
  const checkpoints = await client.query(`${CHECKPOINT_SELECT} from ${checkpointTable} order by chain_id, seq, id`);
  const unchained = await client.query(`select count(*)::int as n from ${table} where chain_id is null`);
  return {
    events: events.rows.map((row) => {
      const record: AuditTrailEntry<AuditChainRecord> = {
        chainId: String(row.chain_id),
        seq: seqOf(row.seq_text),
        prev: text(row.prev_hash),
        hash: text(row.hash),
        type: text(row.type),
        timestamp: instant(row),
        surface: text(row.surface),
        actor: { id: text(row.actor_id), kind: text(row.actor_kind) as AuditChainRecord["actor"]["kind"] },
        data: row.data === null || row.data === undefined ? null : parseJsonColumn(row.data),
        ref: `row id ${String(row.id)}`,
      };
      if (row.execution_id != null) record.executionId = String(row.execution_id);
      if (row.capability_id != null) record.capabilityId = String(row.capability_id);
      if (row.correlation_id != null) record.correlationId = String(row.correlation_id);
      if (row.input_hash != null) record.inputHash = String(row.input_hash);
      if (row.receipt_id != null) record.receiptId = String(row.receipt_id);
      return record;
    }),
    checkpoints: checkpoints.rows.map((row) => ({
      chainId: text(row.chain_id),
      seq: seqOf(row.seq_text),
      hash: text(row.hash),
      at: row.at_ms === null || row.at_ms === undefined ? text(null) : instant(row),
      keyId: text(row.key_id),
      lost: (row.lost === null || row.lost === undefined ? null : parseJsonColumn(row.lost)) as AuditCheckpoint["lost"],
      signature: text(row.signature),
      ref: `checkpoint id ${String(row.id)}`,
    })),
    unchained: Number(unchained.rows[0]?.n ?? 0),
  };
}

/** One JSON object per line: `{"kind":"event",…record}` or `{"kind":"checkpoint",…checkpoint}`. */
export function exportLines(trail: Trail): string[] {
  const strip = <T extends { ref?: string }>(entry: T) => {
    const { ref: _ref, ...rest } = entry;
    return rest;
  };
  return [
    ...trail.events.map((event) => JSON.stringify({ kind: "event", ...strip(event) }, exportReplacer)),
    ...trail.checkpoints.map((checkpoint) => JSON.stringify({ kind: "checkpoint", ...strip(checkpoint) }, exportReplacer)),
  ];
}

/** Reads a JSONL export; a line that is neither an event nor a checkpoint is an error (exit 2), never skipped. */
export function readJsonlTrail(path: string): Trail {
  const trail: Trail = { events: [], checkpoints: [], unchained: 0 };
  const lines = readFileSync(path, "utf8").split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let value: { kind?: unknown } & Record<string, unknown>;
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      throw new Error(`${path}:${index + 1}: not JSON`);
    }
    const { kind, ...rest } = value;
    const ref = `line ${index + 1}`;
    if (kind === "event") trail.events.push({ ...(rest as unknown as AuditChainRecord), ref });
    else if (kind === "checkpoint") trail.checkpoints.push({ ...(rest as unknown as AuditCheckpoint), ref });
    else if (kind === "unchained") trail.unchained++;
    else throw new Error(`${path}:${index + 1}: "kind" must be "event" or "checkpoint"`);
  });
  return trail;
}
