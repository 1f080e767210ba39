import { DEFAULT_MCP_TASKS_TABLE } from "../ddl.js";
import { jsonColumn, jsonParam } from "../encoding.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { mcpTaskStatements } from "./statements.js";

/**
 * What the store needs of an MCP task record (`MCPTaskRecord` of `@orpc-agent/mcp`): typed by shape, so this package
 * does not depend on the MCP adapter. The rest of the record is JSON, written and read back as is.
 */
export type PgMCPTaskRecordShape = { taskId: string; principal: string; expiresAt: number; version: number };

/**
 * The `MCPTaskStore` seam of `@orpc-agent/mcp` (`options.tasks.store`), structurally: every operation is addressed
 * by principal and task id together, and `update` is compare-and-set on `version`.
 */
export interface PgMCPTaskStore<TRecord extends PgMCPTaskRecordShape = PgMCPTaskRecordShape> {
  create(record: TRecord): Promise<void>;
  get(principal: string, taskId: string, now: number): Promise<TRecord | undefined>;
  update(principal: string, taskId: string, expectedVersion: number, next: TRecord): Promise<boolean>;
}

export interface PgMCPTaskStoreOptions {
  query: PgQuery;
  /**
   * The tasks table; may be schema-qualified (`"app.mcp_tasks"`). Created by `INVOCATIONS_DDL`.
   * @default "orpc_agent_mcp_tasks"
   */
  table?: string;
  /** Tasks kept per principal, and in all, as the in-memory store's bounds. @default { perPrincipal: 1_000, total: 10_000 } */
  limits?: { perPrincipal: number; total: number };
}

// Rounds of the total-cap prune per create: each removes the largest holder's oldest overflow.
const PRUNE_ROUNDS = 3;

/**
 * A durable MCP task store (issue 47) over a table the application owns, beside the invocation journal's: a task
 * survives a server restart and can be polled through any instance on the same database. Bounded like the in-memory
 * store (per principal and in total, the oldest of the largest holder giving way; expired tasks are removed on read
 * and on create). A row whose record names another principal or task than its key reads as absent (SI-8).
 *
 * @example
 * import { createMCPHandler, type MCPTaskRecord } from "@orpc-agent/mcp";
 * import { createPgMCPTaskStore } from "@orpc-agent/postgres";
 * import pg from "pg";
 * declare const pool: pg.Pool, runtime: Parameters<typeof createMCPHandler>[0], options: Parameters<typeof createMCPHandler>[1];
 * const store = createPgMCPTaskStore<MCPTaskRecord>({ query: (sql, params) => pool.query(sql, params) });
 * const handler = createMCPHandler(runtime, { ...options, tasks: { store } });
 */
export function createPgMCPTaskStore<TRecord extends PgMCPTaskRecordShape = PgMCPTaskRecordShape>(options: PgMCPTaskStoreOptions): PgMCPTaskStore<TRecord> {
  const { query, table = DEFAULT_MCP_TASKS_TABLE, limits = { perPrincipal: 1_000, total: 10_000 } } = options ?? ({} as PgMCPTaskStoreOptions);
  assertQuery(query);
  assertTableName(table);
  for (const [name, value] of Object.entries(limits ?? {})) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`limits.${name} must be a positive integer`);
  }
  const sql = mcpTaskStatements(table);
  const run = (text: string, params: unknown[]) => runQuery(query, text, params);

  return {
    async create(record) {
      const { version, ...rest } = record;
      await run(sql.create, [record.principal, record.taskId, jsonParam(rest), String(version), String(record.expiresAt)]);
      await run(sql.pruneExpired, [String(Date.now())]);
      await run(sql.prunePrincipal, [record.principal, String(limits.perPrincipal)]);
      for (let round = 0; round < PRUNE_ROUNDS; round++) {
        if ((await run(sql.pruneTotal, [String(limits.total)])).rows.length === 0) break;
      }
    },

    async get(principal, taskId, now) {
      const row = (await run(sql.get, [principal, taskId])).rows[0];
      if (row === undefined) return undefined;
      if (!(Number(row.expires_at) > now)) {
        await run(sql.deleteExpired, [principal, taskId, String(now)]);
        return undefined;
      }
      const record = jsonColumn(row.record, "record") as Record<string, unknown> | undefined;
      // The key decides, and the record must agree with it: an edited row never answers another principal (SI-8).
      if (record === undefined || record === null || record.principal !== principal || record.taskId !== taskId) return undefined;
      return { ...record, version: Number(row.version) } as TRecord;
    },

    async update(principal, taskId, expectedVersion, next) {
      if (!Number.isSafeInteger(expectedVersion)) return false;
      const { version: _ignored, ...rest } = next;
      const { rows } = await run(sql.update, [principal, taskId, String(expectedVersion), jsonParam({ ...rest, principal, taskId }), String(next.expiresAt)]);
      return rows.length > 0;
    },
  };
}
