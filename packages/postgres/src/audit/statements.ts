import type { AgentAuditEvent } from "@orpc-agent/core";
import { instantParam, jsonParam } from "../encoding.js";

// One row per event (docs/architecture/spec/postgres.md#postgres-4-2). Envelope fields without a column are not persisted.
const COLUMNS = "type, at, surface, actor_id, actor_kind, execution_id, capability_id, correlation_id, input_hash, data";

/** Bind parameters per row; a batch stays under Postgres's 65 535 (docs/architecture/spec/postgres.md#postgres-7-2). */
export const PARAMS_PER_EVENT = 10;
/** The most bind parameters one statement may carry (the protocol counts them in 16 bits). */
export const MAX_BIND_PARAMETERS = 65_535;

// A chained event (ADR-025) adds its place in the chain; unchained events keep the original statement.
const CHAIN_COLUMNS = "chain_id, seq, prev_hash, hash, receipt_id";
export const PARAMS_PER_CHAINED_EVENT = 15;
/** Rows per chained INSERT: a full batch of 6553 chained events is written as two statements. */
export const MAX_CHAINED_ROWS_PER_STATEMENT = Math.floor(MAX_BIND_PARAMETERS / PARAMS_PER_CHAINED_EVENT);

/** The row of one event, as strings and nulls only (docs/architecture/spec/postgres.md#postgres-3-2). `data` is payload-free by contract (SI-10). */
export function eventParams(event: AgentAuditEvent): unknown[] {
  return [
    event.type,
    instantParam(event.timestamp),
    event.surface,
    event.actor.id,
    event.actor.kind,
    event.executionId ?? null,
    event.capabilityId ?? null,
    event.correlationId ?? null,
    event.inputHash ?? null,
    jsonParam(event.data),
    ...(event.chain === undefined
      ? []
      : [event.chain.id, event.chain.seq, event.chain.prev, event.chain.hash, event.receiptId ?? null]),
  ];
}

/** An INSERT of `rows` chained rows (15 parameters each; an unchained row is padded with nulls by the caller). */
export function insertChainedEvents(table: string, rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const n = (i: number) => `$${r * PARAMS_PER_CHAINED_EVENT + i}`;
    tuples.push(
      `(${n(1)}, ${n(2)}::timestamptz, ${n(3)}, ${n(4)}, ${n(5)}, ${n(6)}, ${n(7)}, ${n(8)}, ${n(9)}, ${n(10)}::jsonb, ${n(11)}, ${n(12)}::bigint, ${n(13)}, ${n(14)}, ${n(15)})`,
    );
  }
  return `insert into ${table} (${COLUMNS}, ${CHAIN_COLUMNS}) values ${tuples.join(", ")}`;
}

/** A single- or multi-row INSERT for `rows` events; the sink only ever inserts. */
export function insertEvents(table: string, rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const n = (i: number) => `$${r * PARAMS_PER_EVENT + i}`;
    tuples.push(`(${n(1)}, ${n(2)}::timestamptz, ${n(3)}, ${n(4)}, ${n(5)}, ${n(6)}, ${n(7)}, ${n(8)}, ${n(9)}, ${n(10)}::jsonb)`);
  }
  return `insert into ${table} (${COLUMNS}) values ${tuples.join(", ")}`;
}
