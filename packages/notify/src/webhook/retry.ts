/**
 * How a webhook delivery is retried: at most `attempts` tries in all (the first included), the n-th retry waiting a
 * random time up to `min(maxDelayMs, baseDelayMs * 2^(n-1))` ("full jitter", so receivers coming back from an outage
 * are not hit by every sender at once).
 */
export type WebhookRetryOptions = {
  /** Tries in all, the first included; an integer >= 1. @default 6 */
  attempts?: number;
  /** The cap of the first retry's delay. @default 2_000 */
  baseDelayMs?: number;
  /** The cap of any retry's delay. @default 600_000 (10 minutes) */
  maxDelayMs?: number;
  /** A number in [0, 1): the jitter. Tests pass a fixed one. @default Math.random */
  random?: () => number;
};

/** The resolved policy. */
export type RetryPolicy = {
  readonly attempts: number;
  readonly maxDelayMs: number;
  /** The delay before the try after try number `attempt` (1-based) failed: at least 1 ms. */
  delayAfter(attempt: number): number;
};

export function retryPolicy(options: WebhookRetryOptions = {}): RetryPolicy {
  const attempts = options.attempts ?? 6;
  const base = options.baseDelayMs ?? 2_000;
  const max = options.maxDelayMs ?? 600_000;
  const random = options.random ?? Math.random;
  if (!Number.isSafeInteger(attempts) || attempts < 1) throw new TypeError(`retry.attempts must be an integer >= 1 (got ${String(attempts)})`);
  if (!(Number.isFinite(base) && base >= 0)) throw new TypeError(`retry.baseDelayMs must be a finite number >= 0 (got ${String(base)})`);
  if (!(Number.isFinite(max) && max >= base)) throw new TypeError(`retry.maxDelayMs must be a finite number >= baseDelayMs (got ${String(max)})`);
  if (typeof random !== "function") throw new TypeError("retry.random must be a function returning a number in [0, 1)");
  return {
    attempts,
    maxDelayMs: max,
    delayAfter(attempt) {
      const cap = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
      // At least 1 ms: a retry is never due at the instant of the failure, so one drain tries a message once.
      return Math.max(1, Math.floor(cap * Math.min(Math.max(random(), 0), 1)));
    },
  };
}
