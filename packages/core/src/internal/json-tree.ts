/** Copies arrays and plain objects, shares primitives. Exact for JSON data (docs/architecture/spec/core.md#core-8 step 4), far cheaper than structuredClone. */
export function copyJsonTree<T>(value: T): T {
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJsonTree(value[i]);
    return out as T;
  }
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = copyJsonTree((value as Record<string, unknown>)[key]);
      // A schema property named "__proto__" stays an own key instead of replacing the copy's prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else out[key] = item;
    }
    return out as T;
  }
  return value;
}
