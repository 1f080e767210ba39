import { assertTableName } from "./table-name.js";

export const DEFAULT_WEBHOOK_OUTBOX_TABLE = "orpc_agent_webhook_outbox";

/**
 * The webhook outbox DDL for a table name (lowercase letters, digits and `_`, optionally `schema.table`). Idempotent
 * (`if not exists` throughout): re-applying it is a no-op. Every statement ends with `;` and a newline and none
 * contains another `;`, so `ddl.split(";")` yields statements an HTTP driver can run one at a time.
 *
 * @example
 * import { webhookOutboxDdl } from "@orpc-agent/notify";
 * import pg from "pg";
 * const pool = new pg.Pool();
 * await pool.query(webhookOutboxDdl("notify.webhook_outbox"));
 */
export function webhookOutboxDdl(table: string): string {
  assertTableName(table);
  const index = table.replace(".", "_");
  return `create table if not exists ${table} (
  endpoint        text        not null,
  id              text        not null,
  type            text        not null,
  body            text        not null,
  status          text        not null default 'pending'
    check (status in ('pending', 'delivered', 'failed')),
  attempts        integer     not null default 0,
  created_at      timestamptz not null,
  next_attempt_at timestamptz not null,
  locked_until    timestamptz,
  claim           text,
  delivered_at    timestamptz,
  last_status     integer,
  last_error      text,
  primary key (endpoint, id)
);
create index if not exists ${index}_due_idx
  on ${table} (endpoint, next_attempt_at) where status = 'pending';
create index if not exists ${index}_status_idx
  on ${table} (status, created_at);
`;
}

/**
 * The webhook outbox table `orpc_agent_webhook_outbox`, for `createPgWebhookOutbox({ query })`. Apply it as a
 * migration, with a call that accepts several statements (`pool.query(WEBHOOK_OUTBOX_DDL)`, PGlite's `db.exec`).
 */
export const WEBHOOK_OUTBOX_DDL: string = webhookOutboxDdl(DEFAULT_WEBHOOK_OUTBOX_TABLE);
