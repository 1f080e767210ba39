/**
 * How much the in-memory elicitation state store (the default) remembers for principals between requests, where a
 * client can grow it: 2025-11-25 retries awaiting their approval, and the capabilities a 2025-era client declared. Each map has a share per principal
 * (`principalKey`) and a total, so memory stays bounded and one principal's flood costs only its own entries.
 */
export type MemoryLimits = {
  legacyPending: { perPrincipal: number; total: number };
  legacyCapabilities: { perPrincipal: number; total: number };
};

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = Object.freeze({
  // A principal's approvals awaiting a decision, each a distinct call it will retry: a person rarely has more.
  legacyPending: Object.freeze({ perPrincipal: 100, total: 10_000 }),
  // One declaration per principal (the latest `initialize`).
  legacyCapabilities: Object.freeze({ perPrincipal: 1, total: 10_000 }),
});

/**
 * Internal: an options key that replaces the limits, so tests can reach them with a few requests instead of ten
 * thousand. Not exported by the package: applications cannot set it.
 */
export const MEMORY_LIMITS: unique symbol = Symbol("orpc-agent/mcp memory limits");

/** The limits an options object carries under {@link MEMORY_LIMITS}, else the defaults. */
export function memoryLimitsOf(options: object): MemoryLimits {
  const limits = (options as { [MEMORY_LIMITS]?: MemoryLimits })[MEMORY_LIMITS];
  return limits ?? DEFAULT_MEMORY_LIMITS;
}
