import { DEFAULT_MCP_TASKS_TABLE } from "../ddl.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { createChannelFeed, reporter } from "./channel-feed.js";
import { assertChannelName, type PgListen } from "./listen.js";

/** Options of {@link createPgTaskCancellations}. */
export type PgTaskCancellationsOptions = {
  /** The LISTEN seam: {@link pgListenFromClient} for node-postgres, `db.listen` for PGlite. */
  listen: PgListen;
  /** Sends the NOTIFY: one `select pg_notify($1, $2)` per cancel that reached an instance not running the task. */
  query: PgQuery;
  /**
   * The MCP tasks table; names the channel, `<table>_cancel` with a schema's "." as "_".
   * @default "orpc_agent_mcp_tasks"
   */
  table?: string;
  /** A channel of your own instead; the same on every instance. */
  channel?: string;
  /**
   * A failed LISTEN.
   * @default one `console.error` line
   */
  onError?: (error: unknown) => void;
};

/** Exactly `tasks.cancellations` of `@orpc-agent/mcp`. */
export type PgTaskCancellations = {
  publish(taskId: string): Promise<void>;
  subscribe(listener: (taskId: string) => void): () => void;
};

const defaultOnError = (error: unknown): void => {
  console.error(`[@orpc-agent/postgres] the task cancellation feed failed: ${error instanceof Error ? error.message : String(error)}`);
};

/**
 * `tasks.cancellations` over LISTEN/NOTIFY (docs/reference/postgres.md#decisions-across-instances): a `tasks/cancel`
 * that reaches an instance not running the task NOTIFYs the task id; the instance that runs it re-reads the task from
 * the shared store and aborts only if a cancel is recorded there, so a forged NOTIFY aborts nothing. A NOTIFY lost
 * while the LISTEN connection is down is made up at the task's next progress report or run-lease renewal, which re-read
 * the task too.
 *
 * @example
 * import { createPgMCPTaskStore, createPgTaskCancellations, pgListenFromClient, pgQueryFromPool } from "@orpc-agent/postgres";
 * import pg from "pg";
 * const query = pgQueryFromPool(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * const tasks = {
 *   store: createPgMCPTaskStore({ query }),
 *   cancellations: createPgTaskCancellations({ listen: pgListenFromClient(() => new pg.Client({ connectionString: process.env.DATABASE_URL })), query }),
 * };
 * // createMCPHandler(runtime, { ..., tasks })
 */
export function createPgTaskCancellations(options: PgTaskCancellationsOptions): PgTaskCancellations {
  const { listen, query, table = DEFAULT_MCP_TASKS_TABLE, onError = defaultOnError } = options ?? ({} as PgTaskCancellationsOptions);
  if (typeof listen !== "function") throw new TypeError("createPgTaskCancellations: listen is required (pgListenFromClient(...) or db.listen)");
  assertQuery(query);
  assertTableName(table);
  const channel = options.channel ?? `${table.replace(".", "_").slice(0, 56)}_cancel`;
  assertChannelName(channel, "channel");
  if (typeof onError !== "function") throw new TypeError("createPgTaskCancellations: onError must be a function");
  const subscribe = createChannelFeed(listen, channel, reporter(onError));
  return {
    async publish(taskId) {
      // An id too long for a NOTIFY payload is never one of ours; sending it would only fail the cancel.
      if (typeof taskId !== "string" || taskId === "" || new TextEncoder().encode(taskId).length >= 8000) return;
      await runQuery(query, "select pg_notify($1, $2)", [channel, taskId]);
    },
    subscribe,
  };
}
