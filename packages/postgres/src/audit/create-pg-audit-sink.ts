import type { AgentAuditEvent, AgentAuditEventType, AuditSink } from "@orpc-agent/core";
import { DEFAULT_AUDIT_TABLE } from "../ddl.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { batchSettings, type BatchOptions } from "./batch-options.js";
import { createBatchWriter } from "./batch-writer.js";
import { eventParams, insertEvents } from "./statements.js";

export interface PgAuditSinkOptions {
  query: PgQuery;
  /** Default `"orpc_agent_audit_events"`; may be schema-qualified. */
  table?: string;
  /** Omit: one awaited INSERT per event. Defaults when given: `{ size: 50, flushMs: 250 }`. */
  batch?: BatchOptions;
}

export type PgAuditSink = AuditSink & {
  /** Writes the buffer now (and waits for batches in flight); rejects with the write error. */
  flush(): Promise<void>;
  /** Flushes, then writes every later event through individually. Call it after `runtime.drainAudit()`. */
  close(): Promise<void>;
};

/**
 * Events whose write is never buffered: strict mode awaits `capability.started` before the
 * procedure runs, so buffering it would void audit-before-effect (postgres.md §7.2 rule 1, T12).
 */
const WRITE_THROUGH: ReadonlySet<AgentAuditEventType> = new Set<AgentAuditEventType>(["capability.started"]);

/**
 * An `AuditSink` writing one row per event to a table the application owns (postgres.md §7).
 * Construction touches no database.
 *
 * Shutdown order: `await runtime.drainAudit()`, then `await sink.close()`, then end the pool.
 *
 * @example
 * const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: 250 } });
 * const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], strict: true } });
 */
export function createPgAuditSink(options: PgAuditSinkOptions): PgAuditSink {
  const { query, table = DEFAULT_AUDIT_TABLE, batch } = options ?? ({} as PgAuditSinkOptions);
  assertQuery(query);
  assertTableName(table);
  const settings = batchSettings(batch);
  const insertOne = insertEvents(table, 1);
  const writeOne = (params: unknown[]): Promise<void> => runQuery(query, insertOne, params).then(() => undefined);
  const writer =
    settings === undefined
      ? undefined
      : createBatchWriter(settings, (rows) => runQuery(query, insertEvents(table, rows.length), rows.flat()));
  let closed = false;

  const sink = (event: AgentAuditEvent): Promise<void> => {
    let params: unknown[];
    try {
      params = eventParams(event);
    } catch (err) {
      return Promise.reject(err);
    }
    // After close(), late events are neither dropped nor rejected: they write through (§7.2 rule 5).
    if (writer === undefined || closed || WRITE_THROUGH.has(event.type)) return writeOne(params);
    return writer.enqueue(params);
  };

  return Object.assign(sink, {
    flush: async () => {
      if (writer !== undefined) await writer.flush();
    },
    close: async () => {
      closed = true;
      if (writer !== undefined) await writer.flush();
    },
  });
}
