function isPlainContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A deep-frozen copy of plain objects and arrays; other values (Dates, class instances) are shared as they are.
 * Policies see this copy (SI-6): a schema may pass parts of the caller's object through by reference
 * (`z.unknown()`, no schema at all), and freezing in place would freeze the caller's data and the handler's input.
 */
export function frozenCopy<T>(value: T): T {
  if (!isPlainContainer(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const item = frozenCopy((value as Record<string, unknown>)[key]);
    // An own "__proto__" key (JSON.parse makes them) stays an own key: assigning it would swap the copy's
    // prototype, and policies would read inherited, attacker-chosen values (SI-6).
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return Object.freeze(out) as T;
}
