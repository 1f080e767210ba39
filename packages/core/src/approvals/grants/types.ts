import type { Actor, ExposureSurface } from "../../vocabulary/types.js";

// Standing grants (SI-13, docs/guides/standing-grants.md): one decision covering a bounded series of calls. The
// store contract below is what every approval coordinator that keeps grants implements; the shared suite in
// test-fixtures/grant-store-contract.ts is its definition.

/** Which calls of the principal a grant covers: those of one conversation, or any conversation. */
export type GrantScope = "conversation" | "actor";

/** The closed set of condition operators. Conditions are data, never functions. */
export type GrantConditionOperator = "eq" | "in" | "lt" | "lte" | "gt" | "gte" | "prefix";

/**
 * One condition on the validated input. `path` is a JSON Pointer (RFC 6901) into the value the schema returned; a
 * path that resolves to nothing fails the condition. `value` is JSON: `in` takes an array, the order operators a
 * finite number, `prefix` a string.
 */
export type GrantCondition = { path: string; op: GrantConditionOperator; value: unknown };

/** A cumulative spend limit: the number at `path` in each covered call's validated input is summed, never past `max`. */
export type GrantBudget = { path: string; max: number };

/**
 * What an issuer asks for. `uses`: calls covered after the one decided with it (a grant issued ahead of time covers
 * `uses` calls). `ttlMs`: lifetime from issue. Both at most the capability's `approval.grants` caps.
 */
export type GrantRequest = {
  uses: number;
  ttlMs: number;
  scope: GrantScope;
  conditions?: GrantCondition[];
  budget?: GrantBudget;
};

/** `meta.agent.approval.grants`: the most any grant for the capability may allow. Absent: no grant covers it. */
export type GrantCaps = {
  /** Largest `uses` a grant may carry; a positive integer. */
  maxUses: number;
  /** Longest lifetime, in milliseconds; a finite number above 0. */
  maxTtlMs: number;
  /** Scopes a grant may take, at least one. */
  scopes: GrantScope[];
};

/**
 * A grant as the runtime hands it to a store (`createGrant`): its terms, fixed for its life. With `approvals.seal`
 * the runtime seals exactly these fields, so an edited term fails the seal and the grant covers nothing.
 */
export type GrantTerms = {
  /** Runtime-minted `grt_<uuid>`. */
  id: string;
  capabilityId: string;
  /** The capability's approval definition digest on `surface` at issue; a different digest today voids the grant. */
  definitionDigest: string;
  /** The principal: id, kind and acting agent (`via`) must all match a covered call's actor. */
  actor: Actor;
  surface: ExposureSurface;
  scope: GrantScope;
  /** Present exactly when `scope` is `"conversation"`. */
  conversationId?: string;
  /** The approval types covered: every type a call demands must be listed. */
  types: string[];
  conditions: GrantCondition[];
  /** Uses granted; `usesLeft` starts here. */
  uses: number;
  budget?: GrantBudget;
  /** Who issued it: one approver, or every member of a quorum. */
  issuers: Actor[];
  /** The approval decided with this grant, when it was issued by `runtime.approvals.decide`. */
  approvalId?: string;
  issuedAt: Date;
  expiresAt: Date;
  /** The runtime's keyed seal over the terms; opaque to stores, which keep and return it unchanged. */
  seal?: string;
};

/**
 * `active` until revoked, out of uses or budget (`exhausted`), or past `expiresAt` (`expired`, strictly after it), in
 * that precedence. Stores report these four. `void` is the runtime's: the capability's definition changed since issue,
 * or the capability is gone.
 */
export type GrantStatus = "active" | "exhausted" | "expired" | "revoked" | "void";

/** Who ended a grant early, when, and why. The first revocation is kept. */
export type GrantRevocation = { by: Actor; at: Date; reason?: string };

/** A stored grant: its terms and its counters. Stores return detached copies. */
export type GrantRecord = GrantTerms & {
  status: GrantStatus;
  /** Uses still available, from `uses` down to 0. */
  usesLeft: number;
  /** The budget spent so far (double-precision sum of the covered amounts); present exactly when `budget` is. */
  spent?: number;
  revoked?: GrantRevocation;
};

/** Fields AND. `active`: only grants whose status is `active` on the store's clock. */
export type GrantListFilter = { actorId?: string; capabilityId?: string; active?: boolean };

/**
 * One use: `now` is the runtime's clock; `amount` the budget amount of the covered call (required on a grant with a
 * budget, ignored on one without).
 */
export type GrantUse = { now: Date; amount?: number };

/**
 * The grant operations of an approval coordinator (SI-13). Optional on `ApprovalCoordinator`, so coordinators written
 * before grants keep compiling; a runtime whose coordinator lacks any of them refuses every grant (`GRANT_NOT_ALLOWED`)
 * and covers nothing.
 *
 * - `createGrant` stores the terms with `usesLeft = uses` (and `spent = 0` with a budget); a duplicate id throws.
 * - `getGrant` returns the record or `null`; `listGrants` the matching records, oldest `issuedAt` first, then by id.
 * - `useGrant` is the atomic check-and-consume: on a grant that is not revoked, has a use left, is not past
 *   `expiresAt` at `use.now`, and (with a budget) takes a finite `amount >= 0` with `spent + amount <= max` in double
 *   precision, it takes one use and adds the amount, and returns the updated record; otherwise it changes nothing and
 *   returns `null`. Concurrent uses never take more than `uses` uses nor spend past `max`.
 * - `revokeGrant` marks the grant revoked (the first revocation is kept) and returns the record, or `null` for an
 *   unknown id. Once it resolves, no `useGrant` succeeds on it.
 */
export interface GrantStore {
  createGrant(terms: GrantTerms): Promise<GrantRecord>;
  getGrant(id: string): Promise<GrantRecord | null>;
  listGrants(filter?: GrantListFilter): Promise<GrantRecord[]>;
  useGrant(id: string, use: GrantUse): Promise<GrantRecord | null>;
  revokeGrant(id: string, revocation: GrantRevocation): Promise<GrantRecord | null>;
}

/** `runtime.grants.issue` options: a grant issued ahead of time, under the checks a fresh approval would face. */
export type GrantIssueOptions = {
  capabilityId: string;
  /** The principal the grant covers (id, kind and `via`). */
  actor: Actor;
  surface: ExposureSurface;
  /** Required for `scope: "conversation"`, refused otherwise. */
  conversationId?: string;
  /** The approvers issuing it: as many distinct ones as the capability's quorum. */
  issuers: Actor[];
  grant: GrantRequest;
  /**
   * The approval types it covers.
   * @default the capability's `approval.type` when it has one, else none (covering calls that demand no type)
   */
  types?: string[];
};

/** `runtime.grants.list` filter. `actor` matches id, kind and `via` exactly; `active` as `GrantListFilter`, minus void grants. */
export type RuntimeGrantListFilter = { actor?: Actor; capabilityId?: string; active?: boolean };

/**
 * `runtime.grants`: issue, review and revoke standing grants (docs/guides/standing-grants.md). Reads show a sealed grant
 * whose seal fails as unknown, and report `void` for a grant whose capability definition changed.
 */
export type RuntimeGrants = {
  /** Issues a grant ahead of time; refusals are typed (`GRANT_*`, `INPUT_INVALID`). Emits `grant.issued`. */
  issue(options: GrantIssueOptions): Promise<GrantRecord>;
  /** The grant, or `null` for an unknown id (or, with `approvals.seal`, one whose seal fails). */
  get(id: string): Promise<GrantRecord | null>;
  list(filter?: RuntimeGrantListFilter): Promise<GrantRecord[]>;
  /**
   * Ends the grant: once this resolves, no new call is covered by it. `by` is any accountable actor (not anonymous).
   * An unknown id is `GRANT_NOT_FOUND`. Emits `grant.revoked` for the revocation that took effect.
   */
  revoke(id: string, options: { by: Actor; reason?: string }): Promise<GrantRecord>;
};
