import { DEFAULT_APPROVALS_TABLE } from "../ddl.js";
import { instantParam } from "../encoding.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { pgDecisionChannel } from "./decision-channel.js";
import { createChannelFeed, reporter } from "./channel-feed.js";
import { assertChannelName, type PgListen } from "./listen.js";

/** Options of {@link createPgDecisionFeed}. */
export type PgDecisionFeedOptions = {
  /** The LISTEN seam: {@link pgListenFromClient} for node-postgres, `db.listen` for PGlite. */
  listen: PgListen;
  /** Re-reads the decisions made while the LISTEN connection was down (one `select id` per reconnect). */
  query: PgQuery;
  /**
   * The approvals table the coordinator writes; names the channel and the re-read.
   * @default "orpc_agent_approvals"
   */
  table?: string;
  /**
   * The coordinator's `decisionChannel`, when it was set.
   * @default pgDecisionChannel(table)
   */
  decisionChannel?: string;
  /**
   * The clock the coordinator stamps `decidedAt` with.
   * @default () => new Date()
   */
  now?: () => Date;
  /**
   * After a reconnect, decisions stamped from this long before the drop was noticed are reported again: covers
   * clock skew between instances and a drop noticed late.
   * @default 60_000
   */
  resyncMarginMs?: number;
  /**
   * A failed LISTEN or re-read.
   * @default one `console.error` line
   */
  onError?: (error: unknown) => void;
};

/** Exactly `urlElicitation.decisions` of `@orpc-agent/mcp`: subscribe to decided approval ids, get the unsubscribe back. */
export type PgDecisionFeed = (listener: (approvalId: string) => void) => () => void;

// One reconnect reports at most this many ids; the MCP adapter waits on at most 10 000 approvals per process.
const RESYNC_LIMIT = 10_000;

const defaultOnError = (error: unknown): void => {
  console.error(`[@orpc-agent/postgres] the decision feed failed: ${error instanceof Error ? error.message : String(error)}`);
};

/**
 * Decisions made on any instance, as `urlElicitation.decisions` expects them (docs/reference/postgres.md#decisions-across-instances):
 * the PostgreSQL approval coordinator sends `pg_notify(<channel>, <approval id>)` in its decide statement, delivered at
 * commit; this feed LISTENs while someone waits and reports each id. An id says only "look again": whoever hears it
 * re-reads the approval, so a forged or stray NOTIFY decides nothing. When the LISTEN connection comes back after a
 * drop, the ids decided meanwhile (by `decided_at`) are reported too.
 *
 * @example
 * import { createPgDecisionFeed, pgListenFromClient, pgQueryFromPool } from "@orpc-agent/postgres";
 * import pg from "pg";
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const decisions = createPgDecisionFeed({
 *   listen: pgListenFromClient(() => new pg.Client({ connectionString: process.env.DATABASE_URL })),
 *   query: pgQueryFromPool(pool),
 * });
 * // serveMCPStdio(runtime, { ..., urlElicitation: { keys, decisions } })
 */
export function createPgDecisionFeed(options: PgDecisionFeedOptions): PgDecisionFeed {
  const { listen, query, table = DEFAULT_APPROVALS_TABLE, now = () => new Date(), resyncMarginMs = 60_000, onError = defaultOnError } =
    options ?? ({} as PgDecisionFeedOptions);
  if (typeof listen !== "function") throw new TypeError("createPgDecisionFeed: listen is required (pgListenFromClient(...) or db.listen)");
  assertQuery(query);
  assertTableName(table);
  const channel = options.decisionChannel ?? pgDecisionChannel(table);
  assertChannelName(channel, "decisionChannel");
  if (typeof now !== "function") throw new TypeError("createPgDecisionFeed: now must be a function returning a Date");
  if (!(Number.isFinite(resyncMarginMs) && resyncMarginMs >= 0)) throw new TypeError("createPgDecisionFeed: resyncMarginMs must be a finite number >= 0");
  if (typeof onError !== "function") throw new TypeError("createPgDecisionFeed: onError must be a function");
  const reread = `select id from ${table} where decided_at >= $1::timestamptz order by decided_at, id limit ${RESYNC_LIMIT}`;

  const report = reporter(onError);
  let lostAt: Date | undefined;
  return createChannelFeed(listen, channel, report, (deliver, subscribed) => {
    // A new LISTEN: a gap of an earlier one, since released, is not this one's.
    lostAt = undefined;
    return {
    lost: () => void (lostAt ??= now()),
    // NOTIFYs sent while the connection was down are gone: report what was decided meanwhile, read from the table.
    restored: () => {
      const since = lostAt;
      lostAt = undefined;
      if (since === undefined || !subscribed()) return;
      runQuery(query, reread, [instantParam(new Date(since.getTime() - resyncMarginMs))]).then(
        ({ rows }) => {
          for (const row of rows) deliver(String(row.id));
        },
        report,
      );
    },
    };
  });
}
