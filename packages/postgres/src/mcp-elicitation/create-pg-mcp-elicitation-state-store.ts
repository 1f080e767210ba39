import { DEFAULT_MCP_ELICITATION_TABLE } from "../ddl.js";
import { jsonColumn, jsonParam } from "../encoding.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { mcpElicitationStatements } from "./statements.js";

/** A 2025-11-25 call's pending approval (`MCPPendingElicitation` of `@orpc-agent/mcp`), structurally. */
export type PgMCPPendingElicitation = { approvalId: string; url: string; message: string; expiresAt: number };

/** A 2025-era client's declared capabilities (`MCPDeclaredCapabilities` of `@orpc-agent/mcp`), structurally. */
export type PgMCPDeclaredCapabilities = { capabilities: unknown; expiresAt?: number };

/**
 * The `MCPElicitationStateStore` seam of `@orpc-agent/mcp` (`options.urlElicitation.store`), structurally, so this
 * package does not depend on the MCP adapter: every operation names the principal key.
 */
export interface PgMCPElicitationStateStore {
  /** The principal's pending retry of call `callKey`; `undefined` when unknown, another principal's, or expired at `now`. */
  getPending(principal: string, callKey: string, now: number): Promise<PgMCPPendingElicitation | undefined>;
  /** Writes (or replaces) the principal's pending retry, then applies the bounds. */
  setPending(principal: string, callKey: string, pending: PgMCPPendingElicitation): Promise<void>;
  /** Deletes the principal's pending retry, if any. */
  deletePending(principal: string, callKey: string): Promise<void>;
  /** The principal's latest declaration; `undefined` when none, or expired at `now`. */
  getDeclaredCapabilities(principal: string, now: number): Promise<PgMCPDeclaredCapabilities | undefined>;
  /** Writes the principal's declaration (the latest stands), then applies the bounds. */
  setDeclaredCapabilities(principal: string, declared: PgMCPDeclaredCapabilities): Promise<void>;
}

type Bounds = { perPrincipal: number; total: number };

/** Where the store keeps its rows, and how many. */
export interface PgMCPElicitationStateStoreOptions {
  /** The driver seam: one statement, positional parameters, rows back. */
  query: PgQuery;
  /**
   * The table; may be schema-qualified (`"app.mcp_elicitation_state"`). Created by `INVOCATIONS_DDL`.
   * @default "orpc_agent_mcp_elicitation_state"
   */
  table?: string;
  /**
   * Entries kept per principal and in all, as the in-memory store's bounds.
   * @default { pending: { perPrincipal: 100, total: 10_000 }, declaredCapabilities: { perPrincipal: 1, total: 10_000 } }
   */
  limits?: { pending?: { perPrincipal: number; total: number }; declaredCapabilities?: { perPrincipal: number; total: number } };
}

const DEFAULT_LIMITS = { pending: { perPrincipal: 100, total: 10_000 }, declaredCapabilities: { perPrincipal: 1, total: 10_000 } };
// The declaration's one key per principal: the latest `initialize` stands.
const DECLARED = "initialize";
// Rounds of the total-bound prune per write: each removes the largest holder's oldest overflow.
const PRUNE_ROUNDS = 3;

type Kind = "pending" | "capabilities";
/** What a row holds: its key again, so a row moved or copied under another key reads as absent (SI-3). */
type Row<V> = { kind: Kind; principal: string; key: string; value: V };

/**
 * A shared elicitation state store for the MCP v2 endpoint, over a table the application owns, so that several
 * instances behind a load balancer answer a 2025-era client alike: the capabilities it declared in `initialize` on
 * one instance are found by its `tools/call` on another, and a `-32042` retry resumes the same approval wherever it
 * lands. Bounded like the in-memory store (per principal and in total, the least recently set entry of the largest
 * holder giving way); expired entries read as absent and are deleted by the next write. One round trip per
 * operation; a write that may pass the total bound takes one more.
 *
 * @example
 * import { createMCPHandler } from "@orpc-agent/mcp";
 * import { createPgMCPElicitationStateStore } from "@orpc-agent/postgres";
 * import pg from "pg";
 * declare const pool: pg.Pool, runtime: Parameters<typeof createMCPHandler>[0], options: Parameters<typeof createMCPHandler>[1];
 * const store = createPgMCPElicitationStateStore({ query: (sql, params) => pool.query(sql, params) });
 * const handler = createMCPHandler(runtime, { ...options, urlElicitation: { keys: [{ id: "k1", secret: process.env.STATE_SECRET! }], store } });
 */
export function createPgMCPElicitationStateStore(options: PgMCPElicitationStateStoreOptions): PgMCPElicitationStateStore {
  const { query, table = DEFAULT_MCP_ELICITATION_TABLE, limits = {} } = options ?? ({} as PgMCPElicitationStateStoreOptions);
  assertQuery(query);
  assertTableName(table);
  const bounds: Record<Kind, Bounds> = {
    pending: limits?.pending ?? DEFAULT_LIMITS.pending,
    capabilities: limits?.declaredCapabilities ?? DEFAULT_LIMITS.declaredCapabilities,
  };
  for (const [kind, bound] of Object.entries(bounds)) {
    for (const name of ["perPrincipal", "total"] as const) {
      const value = (bound as Partial<Bounds> | null)?.[name];
      if (!Number.isSafeInteger(value) || value! < 1) {
        throw new TypeError(`limits.${kind === "capabilities" ? "declaredCapabilities" : kind}.${name} must be a positive integer`);
      }
    }
  }
  const sql = mcpElicitationStatements(table);
  const run = (text: string, params: unknown[]) => runQuery(query, text, params);

  async function read<V>(kind: Kind, principal: string, key: string, now: number): Promise<V | undefined> {
    const row = (await run(sql.get, [kind, principal, key, String(now)])).rows[0];
    if (row === undefined) return undefined;
    const stored = jsonColumn(row.record, "record") as Row<V> | null | undefined;
    // The key decides, and the record must agree with it: an edited row never answers another principal.
    if (stored === undefined || stored === null || stored.kind !== kind || stored.principal !== principal || stored.key !== key) return undefined;
    return stored.value;
  }

  async function write<V>(kind: Kind, principal: string, key: string, value: V, expiresAt: number | undefined): Promise<void> {
    if (expiresAt !== undefined && !Number.isSafeInteger(Math.trunc(expiresAt))) throw new TypeError("expiresAt must be a finite number of epoch milliseconds");
    const record: Row<V> = { kind, principal, key, value };
    const { perPrincipal, total } = bounds[kind];
    const now = Date.now();
    const expires = expiresAt === undefined ? null : String(Math.trunc(expiresAt));
    const result = (await run(sql.set, [kind, principal, key, jsonParam(record), expires, String(now), String(perPrincipal - 1)])).rows[0];
    // At most this many rows past the bound (fewer when the write replaced an entry): prune only then.
    let over = result === undefined ? 0 : Number(result.held) + 1 - Number(result.removed) - total;
    for (let round = 0; round < PRUNE_ROUNDS && over > 0; round++) {
      const pruned = (await run(sql.pruneTotal, [kind, String(total)])).rows.length;
      if (pruned === 0) break;
      over -= pruned;
    }
  }

  return {
    getPending: (principal, callKey, now) => read<PgMCPPendingElicitation>("pending", principal, callKey, now),
    setPending: (principal, callKey, pending) => write("pending", principal, callKey, pending, pending.expiresAt),
    async deletePending(principal, callKey) {
      await run(sql.delete, ["pending", principal, callKey]);
    },
    getDeclaredCapabilities: (principal, now) => read<PgMCPDeclaredCapabilities>("capabilities", principal, DECLARED, now),
    setDeclaredCapabilities: (principal, declared) => write("capabilities", principal, DECLARED, declared, declared.expiresAt),
  };
}
