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
  if (!(expiresAt instanceof Date)) return true;
  const end = expiresAt.getTime();
  if (!Number.isFinite(end) || !Number.isFinite(at)) return true;
  return at > end;
}

/** A clock's reading in milliseconds: NaN, which every expiry check counts as expired, for anything but a Date. */
export function clockReading(now: unknown): number {
  return now instanceof Date ? now.getTime() : Number.NaN;
}
