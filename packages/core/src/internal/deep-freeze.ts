function isPlainContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Freezes plain objects and arrays in place, recursively. Other objects (Dates, class instances) are left alone. */
export function deepFreeze<T>(value: T): T {
  if (!isPlainContainer(value) || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

/**
 * A frozen deep copy of plain containers: used when the validated value is the caller's own object
 * (no input schema), so that freezing for policies (SI-6) never reaches into the caller's data.
 */
export function frozenCopy<T>(value: T): T {
  if (!isPlainContainer(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) out[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(out) as T;
}
