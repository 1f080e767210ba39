import type { Actor } from "../../vocabulary/types.js";
import { isExpired } from "../expiry.js";
import type { GrantListFilter, GrantRecord, GrantRevocation, GrantStatus, GrantStore, GrantTerms, GrantUse } from "./types.js";

type Stored = GrantTerms & { usesLeft: number; spent?: number; revoked?: GrantRevocation };

/**
 * The grant operations of the in-memory coordinator. Every method checks and mutates synchronously, before any await,
 * so concurrent uses cannot interleave between the check and the consumption (SI-13).
 */
export function createInMemoryGrantStore(now: () => Date): GrantStore {
  const grants = new Map<string, Stored>();
  return {
    async createGrant(terms) {
      if (grants.has(terms.id)) throw new Error(`Grant "${terms.id}" already exists`);
      if (!Number.isSafeInteger(terms.uses) || terms.uses < 0) throw new Error(`Invalid uses ${String(terms.uses)} for grant "${terms.id}": an integer >= 0`);
      const stored: Stored = { ...storedTerms(terms), usesLeft: terms.uses };
      if (stored.budget !== undefined) stored.spent = 0;
      grants.set(stored.id, stored);
      return detach(stored, now());
    },

    async getGrant(id) {
      const stored = grants.get(id);
      return stored === undefined ? null : detach(stored, now());
    },

    async listGrants(filter: GrantListFilter = {}) {
      const at = now();
      const out: GrantRecord[] = [];
      for (const stored of grants.values()) {
        if (filter.capabilityId !== undefined && stored.capabilityId !== filter.capabilityId) continue;
        if (filter.actorId !== undefined && stored.actor.id !== filter.actorId) continue;
        const record = detach(stored, at);
        if (filter.active === true && record.status !== "active") continue;
        if (filter.active === false && record.status === "active") continue;
        out.push(record);
      }
      return out.sort(byIssuedAtThenId);
    },

    async useGrant(id, use: GrantUse) {
      const stored = grants.get(id);
      if (stored === undefined || !(use?.now instanceof Date)) return null;
      if (statusOf(stored, use.now) !== "active") return null;
      let spent: number | undefined;
      if (stored.budget !== undefined) {
        const amount = use.amount;
        if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) return null;
        spent = stored.spent! + amount;
        // Double precision, as every store computes it: 0.1 + 0.2 does not fit under a max of 0.3 (fails closed).
        if (!(spent <= stored.budget.max)) return null;
      }
      stored.usesLeft -= 1;
      if (spent !== undefined) stored.spent = spent;
      return detach(stored, use.now);
    },

    async revokeGrant(id, revocation) {
      const stored = grants.get(id);
      if (stored === undefined) return null;
      if (stored.revoked === undefined) stored.revoked = copyRevocation(revocation);
      return detach(stored, now());
    },
  };
}

/** Revoked, then exhausted (no use, or the whole budget spent), then expired (strictly after `expiresAt`). */
function statusOf(stored: Stored, at: Date): Exclude<GrantStatus, "void"> {
  if (stored.revoked !== undefined) return "revoked";
  if (stored.usesLeft <= 0) return "exhausted";
  if (stored.budget !== undefined && !(stored.spent! < stored.budget.max)) return "exhausted";
  return isExpired(stored.expiresAt, at) ? "expired" : "active";
}

/** The terms as a persistent store keeps them: JSON copies, fresh Dates, absent fields absent. */
function storedTerms(terms: GrantTerms): GrantTerms {
  const out: GrantTerms = {
    id: terms.id,
    capabilityId: terms.capabilityId,
    definitionDigest: terms.definitionDigest,
    actor: jsonCopy(terms.actor) as Actor,
    surface: terms.surface,
    scope: terms.scope,
    types: [...terms.types],
    conditions: jsonCopy(terms.conditions) as GrantTerms["conditions"],
    uses: terms.uses,
    issuers: jsonCopy(terms.issuers) as Actor[],
    issuedAt: new Date(terms.issuedAt.getTime()),
    expiresAt: new Date(terms.expiresAt.getTime()),
  };
  if (terms.conversationId !== undefined) out.conversationId = terms.conversationId;
  if (terms.budget !== undefined) out.budget = { path: terms.budget.path, max: terms.budget.max };
  if (terms.approvalId !== undefined) out.approvalId = terms.approvalId;
  if (typeof terms.seal === "string") out.seal = terms.seal;
  return out;
}

function detach(stored: Stored, at: Date): GrantRecord {
  // Filled in on the fresh copy, not spread into a new literal: on Node 20 that spread was most of a covered call's
  // cost (issue 45's bench, bench/grant-covered.ts). Same keys, same order.
  const record = storedTerms(stored) as GrantRecord;
  record.status = statusOf(stored, at);
  record.usesLeft = stored.usesLeft;
  if (stored.spent !== undefined) record.spent = stored.spent;
  if (stored.revoked !== undefined) record.revoked = copyRevocation(stored.revoked);
  return record;
}

function copyRevocation(revocation: GrantRevocation): GrantRevocation {
  const copy: GrantRevocation = { by: jsonCopy(revocation.by) as Actor, at: new Date(revocation.at.getTime()) };
  if (typeof revocation.reason === "string") copy.reason = revocation.reason;
  return copy;
}

function jsonCopy(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function byIssuedAtThenId(a: GrantRecord, b: GrantRecord): number {
  const byTime = a.issuedAt.getTime() - b.issuedAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
