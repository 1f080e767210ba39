import type { GrantRevocation, GrantStore, GrantTerms } from "@orpc-agent/core";
import { float8Param, instantParam, jsonParam } from "../encoding.js";
import type { PgQuery } from "../query.js";
import { grantFromRow } from "./record.js";
import { grantStatements } from "./statements.js";

/**
 * The grant operations of the PostgreSQL approval coordinator (SI-13), over a validated table name. Each is one
 * statement: `useGrant` checks and consumes in a single conditional UPDATE, so concurrent uses on any number of
 * connections and instances never take more uses than granted nor spend past the budget.
 */
export function createPgGrantStore(query: PgQuery, table: string, now: () => Date): GrantStore {
  const sql = grantStatements(table);
  return {
    async createGrant(terms) {
      checkTerms(terms);
      const { rows } = await query(sql.create, [
        terms.id,
        terms.capabilityId,
        terms.definitionDigest,
        jsonParam(terms.actor),
        terms.surface,
        terms.scope,
        optionalText(terms.conversationId),
        jsonParam(terms.types),
        jsonParam(terms.conditions),
        String(terms.uses),
        terms.budget === undefined ? null : terms.budget.path,
        terms.budget === undefined ? null : float8Param(terms.budget.max),
        jsonParam(terms.issuers),
        optionalText(terms.approvalId),
        instantParam(terms.issuedAt),
        instantParam(terms.expiresAt),
        optionalText(terms.seal),
      ]);
      if (rows.length === 0) throw new Error(`Grant "${terms.id}" already exists`);
      return grantFromRow(rows[0]!, now());
    },

    async getGrant(id) {
      const at = now();
      const { rows } = await query(sql.get, [id]);
      return rows.length === 0 ? null : grantFromRow(rows[0]!, at);
    },

    async listGrants(filter = {}) {
      const at = now();
      const statement = sql.list(filter ?? {}, instantParam(at));
      const { rows } = await query(statement.sql, statement.params);
      return rows.map((row) => grantFromRow(row, at));
    },

    async useGrant(id, use) {
      // Judged at the runtime's instant, never the database clock; an unreadable one consumes nothing.
      const at = use?.now;
      if (!(at instanceof Date) || !Number.isFinite(at.getTime())) return null;
      const { rows } = await query(sql.use, [id, instantParam(at), amountParam(use.amount)]);
      return rows.length === 0 ? null : grantFromRow(rows[0]!, at);
    },

    async revokeGrant(id, revocation: GrantRevocation) {
      if (!(revocation?.at instanceof Date)) throw new TypeError(`Revoking grant "${id}" needs a revocation { by, at: Date, reason? }`);
      const { rows } = await query(sql.revoke, [id, jsonParam(revocation.by), instantParam(revocation.at), optionalText(revocation.reason)]);
      return rows.length === 0 ? null : grantFromRow(rows[0]!, now());
    },
  };
}

/** Refused before any SQL, with core's in-memory messages where it has them. */
function checkTerms(terms: GrantTerms): void {
  if (!Number.isSafeInteger(terms.uses) || terms.uses < 0) throw new Error(`Invalid uses ${String(terms.uses)} for grant "${terms.id}": an integer >= 0`);
  const max = terms.budget?.max;
  if (terms.budget !== undefined && !(typeof max === "number" && Number.isFinite(max) && max > 0)) {
    throw new Error(`Invalid budget max ${String(max)} for grant "${terms.id}": a finite number above 0`);
  }
}

/** The amount as the UPDATE takes it: a finite number >= 0, else NULL, which no budget accepts. */
function amountParam(amount: unknown): string | null {
  return typeof amount === "number" && Number.isFinite(amount) && amount >= 0 ? float8Param(amount) : null;
}

function optionalText(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
