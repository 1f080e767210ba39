import { DEFAULT_MEMORY_LIMITS, type MemoryLimits } from "./memory-limits.js";
import { PrincipalBoundedMap } from "./principal-bounded-map.js";

/**
 * A 2025-11-25 call answered with `-32042`: the approval it was sent to, remembered until the client retries the same
 * call (its retry carries no state). `expiresAt` (epoch ms) is when the store may forget it.
 */
export type MCPPendingElicitation = { approvalId: string; url: string; message: string; expiresAt: number };

/**
 * The client capabilities a 2025-era client declared in `initialize`. `expiresAt` (epoch ms) is its token's expiry;
 * absent when the token states none.
 */
export type MCPDeclaredCapabilities = { capabilities: unknown; expiresAt?: number };

/**
 * What the v2 endpoint remembers between requests for 2025-era clients (`options.urlElicitation.store`): the
 * approvals their retries resume and the capabilities they declared. Keyed by `principalKey` (SI-3: never bearer
 * text); there is no lookup without the principal, so another principal's entry answers like none. An entry read at
 * or after its `expiresAt` is absent. Values are JSON and are copies: changing one read back changes nothing stored.
 * With several instances behind a load balancer, every instance must share one store (e.g. `createPgMCPElicitationStateStore`).
 */
export interface MCPElicitationStateStore {
  /** The pending approval of the principal's call `callKey`, or `undefined` when unknown, another principal's or expired at `now`. */
  getPending(principal: string, callKey: string, now: number): Promise<MCPPendingElicitation | undefined>;
  /** Remembers (or replaces) the pending approval of the principal's call; resolves once `getPending` would find it. */
  setPending(principal: string, callKey: string, pending: MCPPendingElicitation): Promise<void>;
  /** Forgets the principal's call once its retry was answered for good. */
  deletePending(principal: string, callKey: string): Promise<void>;
  /** What the principal declared in its latest `initialize`, or `undefined` when nothing, or expired at `now`. */
  getDeclaredCapabilities(principal: string, now: number): Promise<MCPDeclaredCapabilities | undefined>;
  /** Remembers the principal's declaration (its latest `initialize` stands); resolves once a read would find it. */
  setDeclaredCapabilities(principal: string, declared: MCPDeclaredCapabilities): Promise<void>;
}

/** The one key a principal's declaration has in its map: the latest `initialize` stands. */
const DECLARED = "initialize";

/**
 * The in-memory default: per process (right for one instance, stdio, or a sticky load balancer), bounded per
 * principal and in total as {@link MemoryLimits} says (the least recently set entry of the largest holder gives way),
 * expired entries forgotten when read.
 */
export function createInMemoryElicitationStateStore(limits: MemoryLimits = DEFAULT_MEMORY_LIMITS): MCPElicitationStateStore {
  const pending = new PrincipalBoundedMap<MCPPendingElicitation>(limits.legacyPending);
  const declared = new PrincipalBoundedMap<MCPDeclaredCapabilities>(limits.legacyCapabilities);
  return {
    async getPending(principal, callKey, now) {
      const entry = pending.get(principal, callKey);
      if (entry === undefined) return undefined;
      if (!(entry.expiresAt > now)) {
        pending.delete(principal, callKey);
        return undefined;
      }
      return structuredClone(entry);
    },
    async setPending(principal, callKey, entry) {
      pending.set(principal, callKey, structuredClone(entry));
    },
    async deletePending(principal, callKey) {
      pending.delete(principal, callKey);
    },
    async getDeclaredCapabilities(principal, now) {
      const entry = declared.get(principal, DECLARED);
      if (entry === undefined) return undefined;
      if (entry.expiresAt !== undefined && !(entry.expiresAt > now)) {
        declared.delete(principal, DECLARED);
        return undefined;
      }
      return structuredClone(entry);
    },
    async setDeclaredCapabilities(principal, entry) {
      declared.set(principal, DECLARED, structuredClone(entry));
    },
  };
}

const OPERATIONS = ["getPending", "setPending", "deletePending", "getDeclaredCapabilities", "setDeclaredCapabilities"] as const;

/** Whether `value` has every operation of the seam: what `urlElicitation.store` is checked against at construction. */
export function isElicitationStateStore(value: unknown): value is MCPElicitationStateStore {
  return typeof value === "object" && value !== null && OPERATIONS.every((name) => typeof (value as Record<string, unknown>)[name] === "function");
}
