/**
 * The one value every observer of an execution shares (SI-6): policies, the approval request and hash, the audit
 * hash and the handler. Plain objects and arrays are copied and frozen, so getters are read once and the caller can
 * no longer change them; a plain object's `toJSON` is applied here, as canonical JSON applies it, so the handler
 * reads what the hash binds; a `Date` is copied (freezing does not stop `setTime`). Other class instances are shared.
 * @see docs/architecture/decisions.md#adr-020-what-executes-is-what-was-validated
 */
export function inputSnapshot<T>(value: T): T {
  return snapshot(value, "") as T;
}

// A Proxy can answer each prototype or property read differently, so no copy of it binds anything: refused where
// the platform can tell (Node). Looked up at load time, never statically imported, so core loads outside Node.
const isProxy = loadIsProxy();

function loadIsProxy(): ((value: unknown) => boolean) | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const util = proc?.getBuiltinModule?.("node:util") as { types?: { isProxy?: (value: unknown) => boolean } } | undefined;
    return typeof util?.types?.isProxy === "function" ? util.types.isProxy : undefined;
  } catch {
    return undefined;
  }
}

function snapshot(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (isProxy?.(value)) throw new TypeError("The input contains a Proxy; it cannot be bound to what executes (SI-6).");
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = snapshot(value[i], String(i));
    return Object.freeze(out);
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  // Called once, with the key as JSON.stringify passes it; its result is snapshotted without a second toJSON.
  if (typeof toJSON === "function") return snapshotWithoutToJSON(toJSON.call(value, key), key);
  return snapshotObject(value as Record<string, unknown>, proto === null);
}

function snapshotWithoutToJSON(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || isProxy?.(value) || Array.isArray(value) || value instanceof Date) return snapshot(value, key);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  return snapshotObject(value as Record<string, unknown>, proto === null, true);
}

function snapshotObject(value: Record<string, unknown>, nullProto: boolean, fromToJSON = false): Record<string, unknown> {
  const out: Record<string, unknown> = nullProto ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    // JSON never calls a toJSON found on a toJSON result; keeping it would let the hash apply it a second time.
    if (fromToJSON && key === "toJSON" && typeof value[key] === "function") continue;
    const item = snapshot(value[key], key);
    // An own "__proto__" key stays an own key: assigning it would swap the copy's prototype (SI-6).
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return Object.freeze(out);
}
