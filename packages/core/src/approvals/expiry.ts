/**
 * Every expiry check of the approval path (docs/architecture/spec/core.md#core-r3, docs/architecture/spec/core.md#core-10, as amended): fails closed. An `expiresAt` that is not
 * a `Date`, or a `Date` or clock reading that is not finite, counts as expired; otherwise strict, so at exactly
 * `expiresAt` an approval is still live.
 */
export function isExpired(expiresAt: unknown, now: unknown): boolean {
  return isExpiredAt(expiresAt, clockReading(now));
}

/** `isExpired` against a clock reading in milliseconds (`clockReading`), for paths that read the clock without a Date. */
export function isExpiredAt(expiresAt: unknown, at: number): boolean {
  const end = clockReading(expiresAt);
  if (!Number.isFinite(end) || !Number.isFinite(at)) return true;
  return at > end;
}

const timeValue = Date.prototype.getTime;

/**
 * A Date's own time value in milliseconds, read from the Date itself, so a subclass whose `getTime` answers another
 * instant is judged by the instant it holds (SI-13 review). NaN, which every expiry check counts as expired, for
 * anything that is not a Date (a Proxy over one included).
 */
export function clockReading(now: unknown): number {
  try {
    return timeValue.call(now);
  } catch {
    return Number.NaN;
  }
}
