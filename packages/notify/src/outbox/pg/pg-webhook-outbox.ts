import { randomUUID } from "node:crypto";
import type { ClaimedMessage, OutboxRow, OutboxStatus, WebhookOutbox } from "../types.js";
import { DEFAULT_WEBHOOK_OUTBOX_TABLE } from "./ddl.js";
import type { PgQuery } from "./pg-query.js";
import { outboxStatements } from "./statements.js";
import { assertTableName } from "./table-name.js";

export type PgWebhookOutboxOptions = {
  /** The driver seam: `(sql, params) => pool.query(sql, params)`. */
  query: PgQuery;
  /** The table `webhookOutboxDdl` created. @default "orpc_agent_webhook_outbox" (`WEBHOOK_OUTBOX_DDL`) */
  table?: string;
};

/**
 * A webhook outbox on PostgreSQL: messages survive restarts, and any number of instances drain one table. Each
 * operation is one statement, so pools, pgbouncer in transaction mode and HTTP drivers behave alike. A claim takes
 * due rows with `for update skip locked` and leases them, so two drainers never send one message at once; settling
 * is fenced by the claim's token, so a drainer whose lease ran out cannot overwrite the next one's outcome. Given-up
 * messages stay as `failed` rows until the app deletes them. Instants come from the caller (the notifier's clock),
 * never from the database's.
 *
 * @example
 * import { createPgWebhookOutbox, createWebhookNotifier, WEBHOOK_OUTBOX_DDL } from "@orpc-agent/notify";
 * import pg from "pg";
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await pool.query(WEBHOOK_OUTBOX_DDL); // once, as a migration
 * const outbox = createPgWebhookOutbox({ query: (sql, params) => pool.query(sql, params) });
 * const notifier = createWebhookNotifier({ url: "https://hooks.example.com/approvals", secret: process.env.WEBHOOK_SECRET!, outbox });
 * setInterval(() => void notifier.drain(), 10_000); // on every instance: due retries, and what a restart left
 */
export function createPgWebhookOutbox(options: PgWebhookOutboxOptions): WebhookOutbox {
  const query = options?.query;
  if (typeof query !== "function") throw new TypeError("createPgWebhookOutbox: query is required: pass (sql, params) => pool.query(sql, params)");
  const table = options.table ?? DEFAULT_WEBHOOK_OUTBOX_TABLE;
  assertTableName(table);
  const sql = outboxStatements(table);
  const run = async (text: string, params: unknown[]) => (await query(text, params)).rows;

  return {
    async enqueue(endpoint, message) {
      const rows = await run(sql.enqueue, [endpoint, message.id, message.type, message.body, message.createdAt.toISOString()]);
      return rows.length > 0;
    },

    async claim(endpoint, { now, limit, leaseMs, dueBy = now }) {
      const claim = randomUUID();
      const params = [endpoint, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), claim, String(limit), dueBy.toISOString()];
      const rows = await run(sql.claim, params);
      // RETURNING keeps no order: oldest due first, as the in-memory outbox hands them out.
      return rows
        .map(rowFrom)
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((r): ClaimedMessage => ({ id: r.id, endpoint: r.endpoint, type: r.type, body: r.body, createdAt: r.createdAt, attempts: r.attempts, claim }));
    },

    async settle(message, settlement) {
      const key = [message.endpoint, message.id, message.claim];
      const status = settlement.status === undefined ? null : String(settlement.status);
      const rows =
        settlement.kind === "delivered"
          ? await run(sql.delivered, [...key, settlement.at.toISOString(), status])
          : settlement.kind === "retry"
            ? await run(sql.retry, [...key, settlement.nextAttemptAt.toISOString(), status, settlement.error])
            : await run(sql.failed, [...key, status, settlement.error]);
      return rows.length > 0;
    },

    async nextDueAt(endpoint) {
      const [row] = await run(sql.nextDue, [endpoint]);
      const ms = row?.due_ms;
      return ms === null || ms === undefined ? null : new Date(Math.round(Number(ms)));
    },

    async get(endpoint, id) {
      const [row] = await run(sql.get, [endpoint, id]);
      return row === undefined ? null : rowFrom(row);
    },

    async list(filter = {}) {
      const limit = filter.limit === undefined ? null : String(filter.limit);
      const rows = await run(sql.list, [filter.endpoint ?? null, filter.status ?? null, limit]);
      return rows.map(rowFrom);
    },
  };
}

/** A row as the statements project it: instants as epoch ms, the rest as text or integers. */
function rowFrom(row: Record<string, unknown>): OutboxRow {
  const lastStatus = row.last_status;
  const lastError = row.last_error;
  const deliveredAt = row.delivered_at_ms;
  return {
    endpoint: String(row.endpoint),
    id: String(row.id),
    type: String(row.type),
    body: String(row.body),
    status: String(row.status) as OutboxStatus,
    attempts: Number(row.attempts),
    createdAt: instant(row.created_at_ms),
    nextAttemptAt: instant(row.next_attempt_at_ms),
    ...(deliveredAt === null || deliveredAt === undefined ? {} : { deliveredAt: instant(deliveredAt) }),
    ...(lastStatus === null || lastStatus === undefined ? {} : { lastStatus: Number(lastStatus) }),
    ...(typeof lastError === "string" ? { lastError } : {}),
  };
}

function instant(ms: unknown): Date {
  return new Date(Math.round(Number(ms)));
}
