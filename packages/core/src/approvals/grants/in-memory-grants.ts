import type { Actor } from "../../vocabulary/types.js";
import { clockReading, isExpiredAt } from "../expiry.js";
import { offerSyncGrants } from "./sync-grants.js";
import type { GrantListFilter, GrantRecord, GrantRevocation, GrantStatus, GrantStore, GrantTerms, GrantUse } from "./types.js";

/**
 * A grant as the store keeps it: terms deeply frozen at creation; the counters, `revoked` and a `status` that says
 * revoked or exhausted (never expired: that depends on whose clock reads it) change in place. The stage-9 lookup reads
 * these very entries (`sync-grants.ts`); everything else gets copies with the status on the store's clock.
 */
type Stored = GrantRecord & { status: "active" | "exhausted" | "revoked" };

/**
 * The grant operations of the in-memory coordinator. Every method checks and mutates synchronously, before any await,
 * so concurrent uses cannot interleave between the check and the consumption (SI-13). The same operations, without
 * the promise, are offered to the runtime's stage-9 lookup (`sync-grants.ts`).
 */
export function createInMemoryGrantStore(now: () => Date): GrantStore {
  const grants = new Map<string, Stored>();
  // capabilityId → principal id → grants oldest first (issued at, then id): a lookup reads only that principal's.
  const index = new Map<string, Map<string, Stored[]>>();

  const listGrants = (filter: GrantListFilter = {}): GrantRecord[] => {
    const at = clockReading(now());
    const out: GrantRecord[] = [];
    for (const stored of candidates(index, grants, filter)) {
      if (filter.capabilityId !== undefined && stored.capabilityId !== filter.capabilityId) continue;
      if (filter.actorId !== undefined && stored.actor.id !== filter.actorId) continue;
      const status = statusOf(stored, at);
      if (filter.active === true && status !== "active") continue;
      if (filter.active === false && status === "active") continue;
      out.push(detach(stored, status));
    }
    return out.length > 1 ? out.sort(byIssuedAtThenId) : out;
  };

  const consume = (stored: Stored | undefined, at: number, amount: unknown): stored is Stored => {
    if (stored === undefined || statusOf(stored, at) !== "active") return false;
    let spent: number | undefined;
    if (stored.budget !== undefined) {
      if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) return false;
      spent = stored.spent! + amount;
      // Double precision, as every store computes it: 0.1 + 0.2 does not fit under a max of 0.3 (fails closed).
      if (!(spent <= stored.budget.max)) return false;
    }
    stored.usesLeft -= 1;
    if (spent !== undefined) stored.spent = spent;
    stored.status = settledStatus(stored);
    return true;
  };

  const store: GrantStore = {
    async createGrant(terms) {
      if (grants.has(terms.id)) throw new Error(`Grant "${terms.id}" already exists`);
      if (!Number.isSafeInteger(terms.uses) || terms.uses < 0) throw new Error(`Invalid uses ${String(terms.uses)} for grant "${terms.id}": an integer >= 0`);
      const stored = { ...frozenTerms(storedTerms(terms)), status: "active", usesLeft: terms.uses } as Stored;
      if (stored.budget !== undefined) stored.spent = 0;
      stored.status = settledStatus(stored);
      grants.set(stored.id, stored);
      addToIndex(index, stored);
      return detach(stored, statusOf(stored, clockReading(now())));
    },

    async getGrant(id) {
      const stored = grants.get(id);
      return stored === undefined ? null : detach(stored, statusOf(stored, clockReading(now())));
    },

    async listGrants(filter?: GrantListFilter) {
      return listGrants(filter);
    },

    async useGrant(id, use: GrantUse) {
      const stored = grants.get(id);
      const at = clockReading(use?.now);
      return consume(stored, at, use?.amount) ? detach(stored, statusOf(stored, at)) : null;
    },

    async revokeGrant(id, revocation) {
      const stored = grants.get(id);
      if (stored === undefined) return null;
      if (stored.revoked === undefined) {
        stored.revoked = copyRevocation(revocation);
        stored.status = "revoked";
      }
      return detach(stored, statusOf(stored, clockReading(now())));
    },
  };
  offerSyncGrants(store, {
    grantsOf: (capabilityId, actorId) => index.get(capabilityId)?.get(actorId) ?? NONE,
    // Only an entry this store holds under that id: anything else takes nothing.
    use: (grant, at, amount) => grants.get(grant.id) === grant && consume(grant as Stored, at, amount),
  });
  return store;
}

const NONE: readonly GrantRecord[] = Object.freeze([]);

function addToIndex(index: Map<string, Map<string, Stored[]>>, stored: Stored): void {
  let byActor = index.get(stored.capabilityId);
  if (byActor === undefined) index.set(stored.capabilityId, (byActor = new Map()));
  const list = byActor.get(stored.actor.id);
  if (list === undefined) return void byActor.set(stored.actor.id, [stored]);
  // Grants are issued on a clock that mostly moves forward: one step back from the end finds the place.
  let at = list.length;
  while (at > 0 && byIssuedAtThenId(list[at - 1]!, stored) > 0) at--;
  list.splice(at, 0, stored);
}

/** The grants a filter can match: one principal's on one capability from the index, else a wider scan. */
function candidates(index: Map<string, Map<string, Stored[]>>, grants: Map<string, Stored>, filter: GrantListFilter): Iterable<Stored> {
  if (typeof filter.capabilityId !== "string") return grants.values();
  const byActor = index.get(filter.capabilityId);
  if (byActor === undefined) return [];
  if (typeof filter.actorId === "string") return byActor.get(filter.actorId) ?? [];
  return [...byActor.values()].flat();
}

/** Revoked, then exhausted (no use, or the whole budget spent), then expired (strictly after `expiresAt`). */
function statusOf(stored: Stored, at: number): Exclude<GrantStatus, "void"> {
  const settled = settledStatus(stored);
  if (settled !== "active") return settled;
  return isExpiredAt(stored.expiresAt, at) ? "expired" : "active";
}

/** The status whatever the clock says: revoked, exhausted, or else active until `expiresAt`. */
function settledStatus(stored: Stored): Stored["status"] {
  if (stored.revoked !== undefined) return "revoked";
  if (stored.usesLeft <= 0) return "exhausted";
  if (stored.budget !== undefined && !(stored.spent! < stored.budget.max)) return "exhausted";
  return "active";
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

/**
 * A copy the caller may change freely (G6): fresh objects all the way down, filled in place in the stored key order.
 * The stored terms are JSON already (`storedTerms`), so a structural copy equals a JSON round trip at a fraction of
 * its cost, which was most of a covered call's (issue 45's bench, bench/grant-covered.ts).
 */
function detach(stored: Stored, status: Exclude<GrantStatus, "void">): GrantRecord {
  const record = {
    id: stored.id,
    capabilityId: stored.capabilityId,
    definitionDigest: stored.definitionDigest,
    actor: copyJson(stored.actor),
    surface: stored.surface,
    scope: stored.scope,
    types: stored.types.slice(),
    conditions: copyJson(stored.conditions),
    uses: stored.uses,
    issuers: copyJson(stored.issuers),
    issuedAt: new Date(stored.issuedAt.getTime()),
    expiresAt: new Date(stored.expiresAt.getTime()),
  } as GrantRecord;
  if (stored.conversationId !== undefined) record.conversationId = stored.conversationId;
  if (stored.budget !== undefined) record.budget = { path: stored.budget.path, max: stored.budget.max };
  if (stored.approvalId !== undefined) record.approvalId = stored.approvalId;
  if (stored.seal !== undefined) record.seal = stored.seal;
  record.status = status;
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

/** The stored terms with every nested object and array frozen (their Dates are never handed out, only copies). */
function frozenTerms(terms: GrantTerms): GrantTerms {
  freezeJson(terms.actor);
  freezeJson(terms.types);
  freezeJson(terms.conditions);
  freezeJson(terms.issuers);
  if (terms.budget !== undefined) Object.freeze(terms.budget);
  return terms;
}

function freezeJson(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  for (const key of Object.keys(value)) freezeJson((value as Record<string, unknown>)[key]);
  Object.freeze(value);
}

/** A copy of a value that is JSON already (parsed, or normalized by `jsonCopy`); an own `__proto__` key stays a key. */
function copyJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
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
