import { readFileSync } from "node:fs";
import type { AuditChainRecord, AuditCheckpoint, AuditTrailEntry } from "@orpc-agent/core";
import type { PgLikeClient } from "./load-pg.js";

export type Trail = {
  events: AuditTrailEntry<AuditChainRecord>[];
  checkpoints: AuditTrailEntry<AuditCheckpoint>[];
  unchained: number;
};

// The projection @orpc-agent/postgres reads too (jsonb as text, instants as epoch ms): rows back to hashed records.
const EVENT_SELECT =
  "select id::text as id, chain_id, seq::text as seq_text, prev_hash, hash, receipt_id, type, (extract(epoch from at) * 1000)::float8 as at_ms, surface, actor_id, actor_kind, execution_id, capability_id, correlation_id, input_hash, data::text as data";
const CHECKPOINT_SELECT =
  "select id::text as id, chain_id, seq::text as seq_text, hash, (extract(epoch from at) * 1000)::float8 as at_ms, key_id, lost::text as lost, signature";

const iso = (ms: unknown) => new Date(Math.round(Number(ms))).toISOString();

/** Reads every chained row and checkpoint: three statements, no transaction, nothing written. */
export async function readPostgresTrail(client: PgLikeClient, table: string, checkpointTable: string): Promise<Trail> {
  const events = await client.query(`${EVENT_SELECT} from ${table} where chain_id is not null order by chain_id, seq, id`);
  const checkpoints = await client.query(`${CHECKPOINT_SELECT} from ${checkpointTable} order by chain_id, seq, id`);
  const unchained = await client.query(`select count(*)::int as n from ${table} where chain_id is null`);
  return {
    events: events.rows.map((row) => {
      const record: AuditTrailEntry<AuditChainRecord> = {
        chainId: String(row.chain_id),
        seq: Number(row.seq_text),
        prev: String(row.prev_hash),
        hash: String(row.hash),
        type: String(row.type),
        timestamp: iso(row.at_ms),
        surface: String(row.surface),
        actor: { id: String(row.actor_id), kind: String(row.actor_kind) as AuditChainRecord["actor"]["kind"] },
        data: JSON.parse(String(row.data)) as unknown,
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
      chainId: String(row.chain_id),
      seq: Number(row.seq_text),
      hash: String(row.hash),
      at: iso(row.at_ms),
      keyId: String(row.key_id),
      lost: JSON.parse(String(row.lost)) as AuditCheckpoint["lost"],
      signature: String(row.signature),
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
    ...trail.events.map((event) => JSON.stringify({ kind: "event", ...strip(event) })),
    ...trail.checkpoints.map((checkpoint) => JSON.stringify({ kind: "checkpoint", ...strip(checkpoint) })),
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
