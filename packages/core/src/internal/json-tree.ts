/** Copies arrays and plain objects, shares primitives. Exact for JSON data (core.md §8 step 4), far cheaper than structuredClone. */
export function copyJsonTree<T>(value: T): T {
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJsonTree(value[i]);
    return out as T;
  }
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = copyJsonTree((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}
