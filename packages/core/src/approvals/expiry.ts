/**
 * Every expiry check of the approval path (docs/architecture/spec/core.md#core-r3, docs/architecture/spec/core.md#core-10, as amended): fails closed. An `expiresAt` that is not
 * a `Date`, or a `Date` or clock reading that is not finite, counts as expired; otherwise strict, so at exactly
 * `expiresAt` an approval is still live.
 */
export function isExpired(expiresAt: unknown, now: unknown): boolean {
  if (!(expiresAt instanceof Date) || !(now instanceof Date)) return true;
  const end = expiresAt.getTime();
  const at = now.getTime();
  if (!Number.isFinite(end) || !Number.isFinite(at)) return true;
  return at > end;
}
