import type { AgentAuditEvent, AgentAuditEventType, AuditSink } from "@orpc-agent/core";
import { DEFAULT_AUDIT_TABLE } from "../ddl.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { batchSettings, type BatchOptions } from "./batch-options.js";
import { createBatchWriter } from "./batch-writer.js";
import { defaultCheckpointTable } from "./chain-ddl.js";
import { createCheckpointWriter, type PgAuditCheckpointOptions } from "./checkpoints.js";
import { createGroupCommit, type GroupCommitBounds } from "./group-commit.js";
import { eventParams, insertStatements, MAX_BIND_PARAMETERS } from "./statements.js";

/** Options of {@link createPgAuditSink}. */
export interface PgAuditSinkOptions {
  query: PgQuery;
  /**
   * The audit table; may be schema-qualified.
   * @default "orpc_agent_audit_events"
   */
  table?: string;
  /**
   * Omit to write every event through (each promise settles once its row is stored, rows grouped by group commit);
   * when given, its fields default to `{ size: 50, flushMs: 250 }`.
   */
  batch?: BatchOptions;
  /**
   * Sign the hash chain of `audit: { chain: true }` runtimes with Ed25519 (ADR-025): an opening checkpoint per chain,
   * then one every `everyEvents` stored events or `everyMs`, and one at `close()`. Needs `AUDIT_CHAIN_DDL` applied.
   */
  checkpoint?: PgAuditCheckpointOptions;
}

export type PgAuditSink = AuditSink & {
  /**
   * Writes the buffer now and waits for batches in flight and for every event already written through; rejects with
   * a batch's write error (a written-through event's failure rejects that event's own promise only).
   */
  flush(): Promise<void>;
  /** Flushes, then writes every later event through individually. Call it after `runtime.drainAudit()`. */
  close(): Promise<void>;
  /** With `checkpoint`: flushes, then signs every chain that advanced and waits for the checkpoint writes. */
  checkpoint(): Promise<void>;
};

/**
 * Events whose write is never buffered but written through (group commit): strict mode awaits `capability.started`
 * before the procedure runs, so buffering it would void audit-before-effect (docs/architecture/spec/postgres.md#postgres-7-2 rule 1, T12).
 */
const WRITE_THROUGH: ReadonlySet<AgentAuditEventType> = new Set<AgentAuditEventType>(["capability.started"]);

/**
 * One group-commit statement: under the bind-parameter limit, and at most 500 rows, so one statement's failure
 * or latency stays bounded (100 callers emitting 3 events each fit in one).
 */
const GROUP_COMMIT_BOUNDS: GroupCommitBounds = { maxRows: 500, maxParams: MAX_BIND_PARAMETERS };

/**
 * An `AuditSink` writing one row per event to a table the application owns (docs/architecture/spec/postgres.md#postgres-7).
 * Construction touches no database.
 *
 * Shutdown order: `await runtime.drainAudit()`, then `await sink.close()`, then end the pool.
 *
 * @example
 * import { createAgentRuntime, type AgentGovernance } from "@orpc-agent/core";
 * import { createPgAuditSink, type PgQuery } from "@orpc-agent/postgres";
 * declare const query: PgQuery, governance: AgentGovernance;
 * const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: 250 } });
 * const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], strict: true } });
 */
export function createPgAuditSink(options: PgAuditSinkOptions): PgAuditSink {
  const { query, table = DEFAULT_AUDIT_TABLE, batch, checkpoint } = options ?? ({} as PgAuditSinkOptions);
  assertQuery(query);
  assertTableName(table);
  const settings = batchSettings(batch);
  let checkpoints: ReturnType<typeof createCheckpointWriter> | undefined;
  if (checkpoint !== undefined) {
    const checkpointTable = (checkpoint as { table?: string } | null)?.table ?? defaultCheckpointTable(table);
    assertTableName(checkpointTable);
    checkpoints = createCheckpointWriter(checkpoint, query, checkpointTable);
  }
  const writeRows = async (rows: unknown[][]): Promise<void> => {
    // Unchained rows keep the original 10-column statement; any chained row switches the batch to the chained one.
    for (const { sql, params } of insertStatements(table, rows)) await runQuery(query, sql, params);
  };
  // Within its bounds a group is always one statement.
  const group = createGroupCommit(GROUP_COMMIT_BOUNDS, writeRows);
  const writer = settings === undefined ? undefined : createBatchWriter(settings, writeRows);
  let closed = false;
  // Chained writes not yet settled: a checkpoint waits for them, so it covers every event handed in before it.
  const inFlight = new Set<Promise<void>>();

  const sink = (event: AgentAuditEvent): Promise<void> => {
    let params: unknown[];
    try {
      params = eventParams(event);
    } catch (err) {
      return Promise.reject(err);
    }
    checkpoints?.received(event);
    // After close(), late events are neither dropped nor rejected: they write through (docs/architecture/spec/postgres.md#postgres-7-2 rule 5).
    const written = writer === undefined || closed || WRITE_THROUGH.has(event.type) ? group.write(params) : writer.enqueue(params);
    if (checkpoints !== undefined && event.chain !== undefined) {
      const tracker = checkpoints;
      const tracked = written.then(
        () => tracker.settled(event, false),
        () => tracker.settled(event, true),
      );
      inFlight.add(tracked);
      void tracked.then(() => inFlight.delete(tracked));
    }
    return written;
  };

  // Also waits for the rows already handed to the group commit; their failures reach their own promises only.
  const flush = async () => {
    const written = group.settled();
    try {
      if (writer !== undefined) await writer.flush();
    } finally {
      await written;
    }
  };
  const signNow = async (stop: boolean) => {
    if (checkpoints === undefined) return;
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    await checkpoints.checkpointNow();
    if (stop) checkpoints.stop();
  };
  return Object.assign(sink, {
    flush,
    close: async () => {
      closed = true;
      try {
        await flush();
      } finally {
        await signNow(true);
      }
    },
    checkpoint: async () => {
      await flush().catch(() => {});
      await signNow(false);
    },
  });
}
