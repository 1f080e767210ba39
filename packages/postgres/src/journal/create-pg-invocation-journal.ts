import type { ClaimResult, InvocationJournal, InvocationKey, JournalFinish, JournalListFilter, JournalResolveTarget } from "@orpc-agent/core/server";
import { DEFAULT_INVOCATIONS_TABLE } from "../ddl.js";
import { instantParam, jsonParam } from "../encoding.js";
import { assertQuery, runQuery, type PgQuery } from "../query.js";
import { assertTableName } from "../table-name.js";
import { invocationFromRow, resolutionToJson } from "./record.js";
import { journalStatements } from "./statements.js";

export interface PgInvocationJournalOptions {
  query: PgQuery;
  /**
   * The invocations table; may be schema-qualified (`"app.invocations"`).
   * @default "orpc_agent_invocations"
   */
  table?: string;
  /**
   * The journal clock: observes lapsed leases and stamps rows. Pass the service's `now`.
   * @default () => new Date()
   */
  now?: () => Date;
}

// A begin that keeps losing to a concurrent release/re-claim gives up claiming after this many rounds and
// reports what it found: an answer without a claim is always safe (docs/architecture/spec/distributed.md#distributed-5-2 rule 4).
const BEGIN_ROUNDS = 3;

/**
 * A durable `InvocationJournal` over a table the application owns (docs/architecture/spec/distributed.md#distributed-5-6). Every transition is
 * one compare-and-set statement carrying the fencing token, so one claim holder exists per invocation and a
 * superseded holder cannot record an outcome (D-3). Leases are instants on this journal's clock, passed as
 * parameters; a lapsed lease only changes what readers see, never what can be claimed (D-4).
 *
 * @example
 * import { createInvocationService } from "@orpc-agent/core/server";
 * import { createPgInvocationJournal } from "@orpc-agent/postgres";
 * import pg from "pg";
 * declare const pool: pg.Pool;
 * const journal = createPgInvocationJournal({ query: (sql, params) => pool.query(sql, params) });
 * const service = createInvocationService({ journal, namespace: "shop", revision: process.env.GIT_SHA! });
 */
export function createPgInvocationJournal(options: PgInvocationJournalOptions): InvocationJournal & Required<Pick<InvocationJournal, "list">> {
  const { query, table = DEFAULT_INVOCATIONS_TABLE, now = () => new Date() } = options ?? ({} as PgInvocationJournalOptions);
  assertQuery(query);
  assertTableName(table);
  if (typeof now !== "function") throw new TypeError("now must be a function returning a Date");
  const sql = journalStatements(table);
  const run = (text: string, params: unknown[]) => runQuery(query, text, params);

  const readRow = async (k: InvocationKey) => (await run(sql.get, [k.namespace, k.invocationId])).rows[0];

  return {
    durable: true,

    async begin(e): Promise<ClaimResult> {
      const at = now();
      const stamp = instantParam(at);
      const lease = instantParam(e.leaseExpiresAt);
      let last: Record<string, unknown> | undefined;
      for (let round = 0; round < BEGIN_ROUNDS; round++) {
        const inserted = await run(sql.insert, [
          e.namespace,
          e.invocationId,
          e.fingerprint,
          e.capabilityId,
          e.surface,
          e.actor.id,
          e.actor.kind,
          e.correlationId ?? null,
          lease,
          stamp,
          e.actor.via?.id ?? null,
        ]);
        if (inserted.rows.length > 0) return { kind: "claimed", record: invocationFromRow(inserted.rows[0]!, at) };
        last = await readRow(e);
        // Removed between the two statements (an application purge): insert again.
        if (last === undefined) continue;
        if (last.fingerprint !== e.fingerprint) return { kind: "conflict" };
        if (last.state !== "pending" || (last.approval_id !== null && last.approval_id !== undefined)) {
          return { kind: "existing", record: invocationFromRow(last, at) };
        }
        // Released by a `not-applied` resolution: the same request may claim it again, at fence + 1.
        const reclaimed = await run(sql.reclaimReleased, [e.namespace, e.invocationId, e.fingerprint, lease, stamp]);
        if (reclaimed.rows.length > 0) return { kind: "claimed", record: invocationFromRow(reclaimed.rows[0]!, at) };
      }
      last = await readRow(e);
      if (last === undefined) throw new Error(`Invocation "${e.invocationId}" could not be claimed: its row keeps disappearing`);
      return last.fingerprint !== e.fingerprint ? { kind: "conflict" } : { kind: "existing", record: invocationFromRow(last, at) };
    },

    async claimSuspended(k, approvalId, leaseExpiresAt): Promise<ClaimResult> {
      const at = now();
      const { rows } = await run(sql.claimSuspended, [k.namespace, k.invocationId, approvalId, instantParam(leaseExpiresAt), instantParam(at)]);
      if (rows.length > 0) return { kind: "claimed", record: invocationFromRow(rows[0]!, at) };
      const row = await readRow(k);
      if (row === undefined || row.approval_id !== approvalId) return { kind: "conflict" };
      return { kind: "existing", record: invocationFromRow(row, at) };
    },

    async renew(k, fence, leaseExpiresAt): Promise<boolean> {
      const at = now();
      const { rows } = await run(sql.renew, [k.namespace, k.invocationId, fence, instantParam(leaseExpiresAt), instantParam(at)]);
      return rows.length > 0;
    },

    async finish(k, fence, to: JournalFinish): Promise<boolean> {
      const at = now();
      const { rows } = await run(sql.finish, [
        k.namespace,
        k.invocationId,
        fence,
        to.state,
        to.state === "settled" ? jsonParam(to.outcome) : null,
        to.state === "pending" ? jsonParam(to.suspension) : null,
        to.state === "pending" ? to.approvalId : null,
        to.state === "unknown" ? to.reason : null,
        instantParam(at),
      ]);
      return rows.length > 0;
    },

    async get(k) {
      const at = now();
      const row = await readRow(k);
      return row === undefined ? null : invocationFromRow(row, at);
    },

    async getByApproval(namespace, approvalId) {
      const at = now();
      const { rows } = await run(sql.getByApproval, [namespace, approvalId]);
      return rows.length === 0 ? null : invocationFromRow(rows[0]!, at);
    },

    async resolve(k, expectedFence, to: JournalResolveTarget, r) {
      const at = now();
      const { rows } = await run(sql.resolve, [
        k.namespace,
        k.invocationId,
        expectedFence,
        to.state,
        to.state === "settled" ? jsonParam(to.outcome) : null,
        jsonParam(resolutionToJson(r)),
        instantParam(at),
      ]);
      return rows.length === 0 ? null : invocationFromRow(rows[0]!, at);
    },

    async list(f: JournalListFilter) {
      if (f.limit !== undefined && !(Number.isInteger(f.limit) && f.limit >= 0)) throw new TypeError("list: limit must be an integer ≥ 0");
      const at = now();
      const statement = sql.list(
        { namespace: f.namespace, state: f.state, limit: f.limit, updatedBefore: f.updatedBefore === undefined ? undefined : instantParam(f.updatedBefore) },
        instantParam(at),
      );
      const { rows } = await run(statement.sql, statement.params);
      return rows.map((row) => invocationFromRow(row, at));
    },
  };
}
