import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalsDdl, auditDdl, grantsDdl, invocationsDdl, mcpElicitationDdl, mcpTasksDdl } from "../src/ddl.js";
import { APPROVALS_DDL, AUDIT_DDL, INVOCATIONS_DDL, type PgQuery } from "../src/index.js";
import { createPglite, pgliteQuery } from "./support/pglite.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER, testSchemaName } from "./support/real-server.js";

/** The statements of a DDL script, split the way an HTTP driver would run them (docs/architecture/spec/postgres.md#postgres-3-6). */
const statementsOf = (ddl: string) =>
  ddl
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

const APPROVAL_COLUMNS = [
  "actor", "approvals", "capability_id", "consumed_at", "consumed_by_execution_id", "conversation_id", "decided_at", "decided_by", "decision_comment", "decision_input", "decision_input_hash", "decision_seal",
  "definition", "definition_digest", "expires_at", "id", "input", "input_hash", "manifest_digest", "notices", "quorum", "reasons", "requested_at",
  "risk", "seal", "side_effect", "status", "submitted_input", "surface", "types",
];
const AUDIT_COLUMNS = [
  "actor_id", "actor_kind", "at", "capability_id", "correlation_id", "data", "execution_id", "id", "input_hash", "surface", "type",
];
// Standing grants (SI-13): created by APPROVALS_DDL beside the approvals table.
const GRANT_COLUMNS = [
  "actor", "approval_id", "budget_max", "budget_path", "budget_spent", "capability_id", "conditions", "conversation_id", "definition_digest",
  "expires_at", "id", "issued_at", "issuers", "revoke_reason", "revoked_at", "revoked_by", "scope", "seal", "surface", "types", "uses", "uses_left",
];
// docs/architecture/spec/distributed.md#distributed-5-6
const INVOCATION_COLUMNS = [
  "actor_id", "actor_kind", "actor_via_id", "approval_id", "capability_id", "correlation_id", "created_at", "fence", "fingerprint", "invocation_id",
  "lease_expires_at", "namespace", "outcome", "resolution", "state", "surface", "suspension", "unknown_reason", "updated_at",
];

describe("APPROVALS_DDL and AUDIT_DDL: text", () => {
  it("target the default table names and ends every statement with ';' and a newline, with no other ';'", () => {
    expect(APPROVALS_DDL).toMatch(/^create table if not exists orpc_agent_approvals \(/);
    expect(AUDIT_DDL).toMatch(/^create table if not exists orpc_agent_audit_events \(/);
    for (const ddl of [APPROVALS_DDL, AUDIT_DDL]) {
      expect(ddl.endsWith(";\n")).toBe(true);
      expect(ddl.split(";").length - 1).toBe(statementsOf(ddl).length);
      for (const statement of statementsOf(ddl)) expect(ddl).toContain(`${statement};\n`);
      expect(ddl).not.toMatch(/now\(\)|current_timestamp/i);
    }
    expect(statementsOf(AUDIT_DDL)).toHaveLength(4);
    // The table, three indexes, the additive migrations of later releases (docs/architecture/spec/postgres.md#postgres-4-3),
    // then the grants table and its two indexes.
    expect(statementsOf(APPROVALS_DDL)).toHaveLength(20);
    expect(statementsOf(APPROVALS_DDL).slice(4, 17)).toEqual([
      "alter table orpc_agent_approvals add column if not exists submitted_input jsonb",
      "alter table orpc_agent_approvals add column if not exists quorum integer",
      "alter table orpc_agent_approvals add column if not exists approvals jsonb",
      "alter table orpc_agent_approvals add column if not exists seal text",
      "alter table orpc_agent_approvals add column if not exists decision_seal text",
      "alter table orpc_agent_approvals add column if not exists definition_digest text",
      "alter table orpc_agent_approvals add column if not exists manifest_digest text",
      "alter table orpc_agent_approvals add column if not exists definition jsonb",
      "alter table orpc_agent_approvals add column if not exists consumed_at timestamptz",
      "alter table orpc_agent_approvals add column if not exists conversation_id text",
      "alter table orpc_agent_approvals add column if not exists decision_input jsonb",
      "alter table orpc_agent_approvals add column if not exists decision_input_hash text",
      "alter table orpc_agent_approvals add column if not exists notices jsonb",
    ]);
    expect(statementsOf(APPROVALS_DDL)[17]).toMatch(/^create table if not exists orpc_agent_grants \(/);
    expect(statementsOf(APPROVALS_DDL).slice(18)).toEqual([
      "create index if not exists orpc_agent_grants_capability_idx\n  on orpc_agent_grants (capability_id, issued_at)",
      "create index if not exists orpc_agent_grants_actor_idx\n  on orpc_agent_grants ((actor ->> 'id'), issued_at)",
    ]);
    expect(APPROVALS_DDL).toBe(approvalsDdl("orpc_agent_approvals") + grantsDdl("orpc_agent_grants"));
  });

  it("INVOCATIONS_DDL targets orpc_agent_invocations in four ';'-terminated statements, its approval index unique and partial, then the MCP tasks table in two and the MCP elicitation state table in three", () => {
    expect(INVOCATIONS_DDL).toMatch(/^create table if not exists orpc_agent_invocations \(/);
    expect(INVOCATIONS_DDL.endsWith(";\n")).toBe(true);
    expect(statementsOf(INVOCATIONS_DDL)).toHaveLength(9);
    expect(INVOCATIONS_DDL.split(";").length - 1).toBe(9);
    // Issues 47 and 48: the MCP adapter's tasks and elicitation state live beside the journal, created by the same script.
    expect(INVOCATIONS_DDL).toBe(invocationsDdl("orpc_agent_invocations") + mcpTasksDdl("orpc_agent_mcp_tasks") + mcpElicitationDdl("orpc_agent_mcp_elicitation_state"));
    expect(statementsOf(INVOCATIONS_DDL)[6]).toMatch(/^create table if not exists orpc_agent_mcp_elicitation_state \(/);
    expect(statementsOf(INVOCATIONS_DDL)[8]).toBe("create index if not exists orpc_agent_mcp_elicitation_state_expiry_idx\n  on orpc_agent_mcp_elicitation_state (expires_at)");
    expect(statementsOf(INVOCATIONS_DDL)[4]).toMatch(/^create table if not exists orpc_agent_mcp_tasks \(/);
    expect(statementsOf(INVOCATIONS_DDL)[5]).toBe("create index if not exists orpc_agent_mcp_tasks_expiry_idx\n  on orpc_agent_mcp_tasks (expires_at)");
    // Added after the first release: re-applying the script brings an older table up to date.
    expect(statementsOf(INVOCATIONS_DDL)[3]).toBe("alter table orpc_agent_invocations add column if not exists actor_via_id text");
    expect(INVOCATIONS_DDL).toContain("create unique index if not exists orpc_agent_invocations_approval_idx");
    expect(INVOCATIONS_DDL).toContain("where approval_id is not null");
    expect(INVOCATIONS_DDL).toContain("primary key (namespace, invocation_id)");
    expect(INVOCATIONS_DDL).not.toMatch(/now\(\)|current_timestamp/i);
    expect(invocationsDdl("app.invocations")).toContain("create index if not exists app_invocations_open_idx\n  on app.invocations (");
  });

  it("qualifies only the table for a schema-qualified name, never the index names", () => {
    const ddl = approvalsDdl("app.approvals");
    expect(ddl).toContain("create table if not exists app.approvals (");
    expect(ddl).toContain("create index if not exists app_approvals_status_idx\n  on app.approvals (status, expires_at)");
    expect(ddl).not.toMatch(/index if not exists app\./);
    expect(auditDdl("app.events")).toContain("create index if not exists app_events_execution_idx\n  on app.events (execution_id)");
    expect(grantsDdl("app.grants")).toContain("create index if not exists app_grants_actor_idx\n  on app.grants (");
  });
});

/** Both scripts, applied twice, then split and run one statement at a time through the query seam. */
function appliesIdempotently(
  exec: () => (sql: string) => Promise<unknown>,
  query: () => PgQuery,
  columnsOf: (table: string) => Promise<string[]>,
) {
  it("applying APPROVALS_DDL, AUDIT_DDL and INVOCATIONS_DDL twice succeeds and creates the tables of postgres.md §4, distributed.md §5.6 and the grants table", async () => {
    for (let round = 0; round < 2; round++) {
      await exec()(APPROVALS_DDL);
      await exec()(AUDIT_DDL);
      await exec()(INVOCATIONS_DDL);
    }
    expect(await columnsOf("orpc_agent_approvals")).toEqual(APPROVAL_COLUMNS);
    expect(await columnsOf("orpc_agent_grants")).toEqual(GRANT_COLUMNS);
    expect(await columnsOf("orpc_agent_audit_events")).toEqual(AUDIT_COLUMNS);
    expect(await columnsOf("orpc_agent_invocations")).toEqual(INVOCATION_COLUMNS);
  });

  it("the split statements run one at a time through PgQuery, also over existing tables", async () => {
    for (let round = 0; round < 2; round++) {
      for (const statement of [...statementsOf(APPROVALS_DDL), ...statementsOf(AUDIT_DDL), ...statementsOf(INVOCATIONS_DDL)]) {
        await query()(statement, []);
      }
    }
    expect(await columnsOf("orpc_agent_approvals")).toEqual(APPROVAL_COLUMNS);
    expect(await columnsOf("orpc_agent_grants")).toEqual(GRANT_COLUMNS);
    expect(await columnsOf("orpc_agent_invocations")).toEqual(INVOCATION_COLUMNS);
  });
}

describe("DDL over PGlite", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
    await db.exec("create schema ddl_test; set search_path to ddl_test");
  });
  afterAll(async () => {
    await db?.close();
  });
  const columnsOf = async (table: string) =>
    (
      await db.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'ddl_test' and table_name = $1 order by column_name",
        [table],
      )
    ).rows.map((r) => r.column_name);
  appliesIdempotently(
    () => (sql) => db.exec(sql),
    () => pgliteQuery(db),
    columnsOf,
  );
});

describe(`DDL over a ${REAL_SERVER}`, () => {
  const schema = testSchemaName("ddl");
  let admin: pg.Pool;
  let pool: pg.Pool;
  beforeAll(async () => {
    admin = createTestPool({ max: 1 });
    await createTestSchema(admin, "ddl");
    // Test harness only: the default names of the constants land in this file's schema.
    pool = createTestPool({ max: 2, searchPath: schema });
  });
  afterAll(async () => {
    await pool?.end();
    if (admin === undefined) return;
    await dropTestSchema(admin, schema);
    await admin.end();
  });
  const columnsOf = async (table: string) =>
    (
      await admin.query(
        "select column_name from information_schema.columns where table_schema = $1 and table_name = $2 order by column_name",
        [schema, table],
      )
    ).rows.map((r: { column_name: string }) => r.column_name);
  appliesIdempotently(
    () => (sql) => pool.query(sql),
    () => (sql, params) => pool.query(sql, params),
    columnsOf,
  );
});
