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
  const params: unknown[] = [
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
  ];
  if (event.chain !== undefined) params.push(event.chain.id, event.chain.seq, event.chain.prev, event.chain.hash, event.receiptId ?? null);
  return params;
}

/** One statement: its text and its parameters. */
export type Statement = { sql: string; params: unknown[] };

/**
 * The INSERTs for a list of rows: one statement when every row is unchained (10 columns), else the chained
 * statement (15 columns, unchained rows padded with nulls) in chunks under the bind-parameter limit. Rows keep
 * their order, so a chain's rows are stored in the order they arrive.
 */
export function insertStatements(table: string, rows: unknown[][]): Statement[] {
  const chained = rows.some((row) => row.length === PARAMS_PER_CHAINED_EVENT);
  if (!chained) return [{ sql: `insert into ${table} (${COLUMNS}) values ${UNCHAINED_TUPLES.list(rows.length)}`, params: flatten(rows, PARAMS_PER_EVENT) }];
  const statements: Statement[] = [];
  for (let start = 0; start < rows.length; start += MAX_CHAINED_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + MAX_CHAINED_ROWS_PER_STATEMENT);
    statements.push({
      sql: `insert into ${table} (${COLUMNS}, ${CHAIN_COLUMNS}) values ${CHAINED_TUPLES.list(chunk.length)}`,
      params: flatten(chunk, PARAMS_PER_CHAINED_EVENT),
    });
  }
  return statements;
}

/** The rows' parameters in one array, each row padded with nulls to `width` (a loop: `Array.prototype.flat` is slow). */
function flatten(rows: unknown[][], width: number): unknown[] {
  const params = new Array<unknown>(rows.length * width);
  let at = 0;
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) params[at++] = row[i];
    for (let i = row.length; i < width; i++) params[at++] = null;
  }
  return params;
}

/**
 * The VALUES tuples of a statement, `($1, $2::timestamptz, …)`: the text of row r depends only on r, so each is
 * built once per process and reused by every statement (group commit writes statements of every size).
 */
function tupleList(width: number, casts: Record<number, string>) {
  const tuples: string[] = [];
  const tuple = (r: number) => {
    const placeholders: string[] = [];
    for (let i = 1; i <= width; i++) placeholders.push(`$${r * width + i}${casts[i] ?? ""}`);
    return `(${placeholders.join(", ")})`;
  };
  return {
    list(rows: number): string {
      while (tuples.length < rows) tuples.push(tuple(tuples.length));
      return (rows === tuples.length ? tuples : tuples.slice(0, rows)).join(", ");
    },
  };
}

const UNCHAINED_TUPLES = tupleList(PARAMS_PER_EVENT, { 2: "::timestamptz", 10: "::jsonb" });
const CHAINED_TUPLES = tupleList(PARAMS_PER_CHAINED_EVENT, { 2: "::timestamptz", 10: "::jsonb", 12: "::bigint" });
