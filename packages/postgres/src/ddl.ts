import { indexPrefix } from "./table-name.js";

// The DDL scripts (docs/architecture/spec/postgres.md#postgres-3-6, docs/architecture/spec/postgres.md#postgres-4). Every statement ends with ";" and a newline and no
// statement contains another ";", so `DDL.split(";")` yields statements that an HTTP driver
// can run one at a time. Every statement is `if not exists`: re-applying is a no-op.

export const DEFAULT_APPROVALS_TABLE = "orpc_agent_approvals";
export const DEFAULT_AUDIT_TABLE = "orpc_agent_audit_events";
export const DEFAULT_INVOCATIONS_TABLE = "orpc_agent_invocations";
export const DEFAULT_GRANTS_TABLE = "orpc_agent_grants";
export const DEFAULT_MCP_TASKS_TABLE = "orpc_agent_mcp_tasks";
export const DEFAULT_MCP_ELICITATION_TABLE = "orpc_agent_mcp_elicitation_state";

/**
 * The approvals DDL for a (validated) table name; the exported constant uses the default. Columns added after the
 * first release come as `alter table … add column if not exists` (docs/architecture/spec/postgres.md#postgres-4-3), so re-applying the current
 * DDL brings a table created by any earlier release up to date: `submitted_input` (approval binding), `quorum`
 * and `approvals` (quorum approvals; SQL NULL means a single approver and no votes), `seal` and `decision_seal`
 * (the runtime's keyed seals, opaque here), `definition_digest`, `manifest_digest` and `definition` (what the
 * capability's governance was when the approval was requested), `consumed_at` (when `markConsumed` ran, on the
 * coordinator's clock: the recovery list's time bound starts there), `conversation_id` (the conversation a call came
 * from, so a grant decided with the request can be scoped to it: SI-13), `decision_input` and `decision_input_hash`
 * (approve with changes: the edited input the decision binds and its hash, beside the request's own; SQL NULL when
 * approved as asked), `notices` (escalation and expiry warnings a sweep claimed: notice key → ISO instant; SQL NULL
 * when none; never part of the record).
 */
export function approvalsDdl(table: string): string {
  const index = indexPrefix(table);
  return `create table if not exists ${table} (
  id                       text        primary key,
  capability_id            text        not null,
  surface                  text        not null,
  actor                    jsonb       not null,
  input                    jsonb,
  input_hash               text        not null,
  submitted_input          jsonb,
  reasons                  jsonb       not null,
  types                    jsonb       not null,
  risk                     text        not null,
  side_effect              text        not null,
  status                   text        not null
    check (status in ('pending', 'approved', 'rejected', 'cancelled', 'consumed')),
  requested_at             timestamptz not null,
  expires_at               timestamptz not null,
  decided_by               jsonb,
  decided_at               timestamptz,
  decision_comment         text,
  consumed_by_execution_id text,
  check ((decided_by is null) = (decided_at is null)),
  check ((status = 'consumed') = (consumed_by_execution_id is not null))
);
create index if not exists ${index}_status_idx
  on ${table} (status, expires_at);
create index if not exists ${index}_capability_idx
  on ${table} (capability_id, requested_at);
create index if not exists ${index}_actor_idx
  on ${table} ((actor ->> 'id'), requested_at);
alter table ${table} add column if not exists submitted_input jsonb;
alter table ${table} add column if not exists quorum integer;
alter table ${table} add column if not exists approvals jsonb;
alter table ${table} add column if not exists seal text;
alter table ${table} add column if not exists decision_seal text;
alter table ${table} add column if not exists definition_digest text;
alter table ${table} add column if not exists manifest_digest text;
alter table ${table} add column if not exists definition jsonb;
alter table ${table} add column if not exists consumed_at timestamptz;
alter table ${table} add column if not exists conversation_id text;
alter table ${table} add column if not exists decision_input jsonb;
alter table ${table} add column if not exists decision_input_hash text;
alter table ${table} add column if not exists notices jsonb;
`;
}

/**
 * The standing-grants DDL for a (validated) table name (SI-13, docs/guides/standing-grants.md). The terms are written
 * once and never updated; JSON terms are jsonb like the approvals table's. The counters change only through the
 * single-statement use and revoke of the coordinator: `uses_left` and `budget_spent` (float8, so the cumulative sum
 * rounds in double precision exactly as in JS), `revoked_*` once. The checks are a second line behind those
 * statements' guards, never the first.
 */
export function grantsDdl(table: string): string {
  const index = indexPrefix(table);
  return `create table if not exists ${table} (
  id                text             primary key,
  capability_id     text             not null,
  definition_digest text             not null,
  actor             jsonb            not null,
  surface           text             not null,
  scope             text             not null,
  conversation_id   text,
  types             jsonb            not null,
  conditions        jsonb            not null,
  uses              bigint           not null,
  uses_left         bigint           not null,
  budget_path       text,
  budget_max        double precision,
  budget_spent      double precision,
  issuers           jsonb            not null,
  approval_id       text,
  issued_at         timestamptz      not null,
  expires_at        timestamptz      not null,
  seal              text,
  revoked_by        jsonb,
  revoked_at        timestamptz,
  revoke_reason     text,
  check (uses_left >= 0 and uses_left <= uses),
  check ((budget_path is null) = (budget_max is null) and (budget_max is null) = (budget_spent is null)),
  check (budget_max > 0 and budget_max < 'Infinity' and budget_spent >= 0 and budget_spent <= budget_max),
  check ((revoked_by is null) = (revoked_at is null))
);
create index if not exists ${index}_capability_idx
  on ${table} (capability_id, issued_at);
create index if not exists ${index}_actor_idx
  on ${table} ((actor ->> 'id'), issued_at);
`;
}

/** The audit DDL for a (validated) table name; the exported constant uses the default. */
export function auditDdl(table: string): string {
  const index = indexPrefix(table);
  return `create table if not exists ${table} (
  id             bigint      generated always as identity primary key,
  type           text        not null,
  at             timestamptz not null,
  surface        text        not null,
  actor_id       text        not null,
  actor_kind     text        not null,
  execution_id   text,
  capability_id  text,
  correlation_id text,
  input_hash     text,
  data           jsonb       not null
);
create index if not exists ${index}_capability_at_idx
  on ${table} (capability_id, at);
create index if not exists ${index}_actor_at_idx
  on ${table} (actor_id, at);
create index if not exists ${index}_execution_idx
  on ${table} (execution_id);
`;
}

/**
 * The invocation journal DDL for a (validated) table name (docs/architecture/spec/distributed.md#distributed-5-6). The approval index is
 * unique: one approval suspends one invocation, and `getByApproval` links the two tables without a column
 * in the approvals table. The open index serves reconciliation scans of claimed and unknown rows.
 */
export function invocationsDdl(table: string): string {
  const index = indexPrefix(table);
  return `create table if not exists ${table} (
  namespace        text        not null,
  invocation_id    text        not null,
  fingerprint      text        not null,
  capability_id    text        not null,
  surface          text        not null,
  actor_id         text        not null,
  actor_kind       text        not null,
  correlation_id   text,
  state            text        not null
    check (state in ('pending', 'claimed', 'settled', 'unknown')),
  fence            bigint      not null check (fence >= 1),
  lease_expires_at timestamptz,
  approval_id      text,
  suspension       jsonb,
  outcome          jsonb,
  unknown_reason   text,
  resolution       jsonb,
  created_at       timestamptz not null,
  updated_at       timestamptz not null,
  primary key (namespace, invocation_id),
  check ((state = 'claimed') = (lease_expires_at is not null))
);
create unique index if not exists ${index}_approval_idx
  on ${table} (namespace, approval_id) where approval_id is not null;
create index if not exists ${index}_open_idx
  on ${table} (namespace, state, lease_expires_at) where state in ('claimed', 'unknown');
alter table ${table} add column if not exists actor_via_id text;
`;
}

/**
 * The MCP tasks DDL for a (validated) table name (issue 47), part of the invocation journal's script: a task's record
 * is JSON written whole by the MCP adapter; `version` is the compare-and-set token of every transition, `seq` the
 * creation order the caps evict by, `expires_at` epoch milliseconds on the adapter's clock. Its own table, not
 * columns of the invocations table: a task exists before any invocation row (a `task: "always"` call) and is keyed
 * by principal, which an invocation row is not.
 */
export function mcpTasksDdl(table: string): string {
  const index = indexPrefix(table);
  return `create table if not exists ${table} (
  principal  text   not null,
  task_id    text   not null,
  seq        bigint generated always as identity,
  record     jsonb  not null,
  version    bigint not null,
  expires_at bigint not null,
  primary key (principal, task_id)
);
create index if not exists ${index}_expiry_idx
  on ${table} (expires_at);
`;
}

/**
 * The MCP elicitation state DDL for a (validated) table name (issue 48), part of the invocation journal's script,
 * beside the MCP tasks table: what the MCP v2 endpoint remembers per principal for 2025-era clients, shared by every
 * instance. `kind` is 'pending' (a 2025-11-25 retry's approval, keyed by call) or 'capabilities' (the declaration of
 * `initialize`); `record` is JSON written whole by the store, repeating its key; `seq` the write order the bounds
 * evict by; `expires_at` epoch milliseconds on the adapter's clock (NULL: a declaration whose token states no expiry).
 */
export function mcpElicitationDdl(table: string): string {
  const index = indexPrefix(table);
  return `create table if not exists ${table} (
  kind       text   not null check (kind in ('pending', 'capabilities')),
  principal  text   not null,
  entry_key  text   not null,
  seq        bigint generated always as identity,
  record     jsonb  not null,
  expires_at bigint,
  primary key (kind, principal, entry_key)
);
create index if not exists ${index}_seq_idx
  on ${table} (kind, principal, seq);
create index if not exists ${index}_expiry_idx
  on ${table} (expires_at);
`;
}

/**
 * Canonical DDL of the approvals table `orpc_agent_approvals` (docs/architecture/spec/postgres.md#postgres-4-1) and of the
 * standing-grants table `orpc_agent_grants` beside it (SI-13), both kept by the approval coordinator. Apply it with
 * your own migration tooling: `pool.query(APPROVALS_DDL)` (no parameter array) or PGlite's
 * `db.exec(APPROVALS_DDL)`. Re-applying it brings tables of any earlier release up to date.
 */
export const APPROVALS_DDL: string = approvalsDdl(DEFAULT_APPROVALS_TABLE) + grantsDdl(DEFAULT_GRANTS_TABLE);

/**
 * Canonical DDL of the audit table `orpc_agent_audit_events` (docs/architecture/spec/postgres.md#postgres-4-2). Recommended:
 * the writing role gets INSERT only on it (append-only evidence).
 */
export const AUDIT_DDL: string = auditDdl(DEFAULT_AUDIT_TABLE);

/**
 * Canonical DDL of the invocation journal table `orpc_agent_invocations` (docs/architecture/spec/distributed.md#distributed-5-6) and of
 * the MCP adapter's tables beside it: tasks `orpc_agent_mcp_tasks` (issue 47) and elicitation state
 * `orpc_agent_mcp_elicitation_state` (issue 48). Apply it like the others: `pool.query(INVOCATIONS_DDL)` (no
 * parameter array) or PGlite's `db.exec(INVOCATIONS_DDL)`.
 */
export const INVOCATIONS_DDL: string =
  invocationsDdl(DEFAULT_INVOCATIONS_TABLE) + mcpTasksDdl(DEFAULT_MCP_TASKS_TABLE) + mcpElicitationDdl(DEFAULT_MCP_ELICITATION_TABLE);
