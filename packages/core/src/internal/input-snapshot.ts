/**
 * The one value every observer of an execution shares (SI-6): policies, the approval request and hash, the audit
 * hash and the handler. Plain objects and arrays are copied and frozen, so getters are read once and the caller can
 * no longer change them; a plain object's `toJSON` is applied here, as canonical JSON applies it, so the handler
 * reads what the hash binds; a `Date` and a typed array are copied (freezing stops neither `setTime` nor index writes),
 * a `Map` or `Set` is copied into one that refuses writes. Other class instances are shared: nothing generic can copy
 * them, and canonical JSON binds only their own enumerable fields.
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
  if (ArrayBuffer.isView(value)) return copyView(value);
  if (value instanceof Map) return readOnly(new Map([...value].map(([k, v]) => [snapshot(k, ""), snapshot(v, "")])), MAP_WRITES);
  if (value instanceof Set) return readOnly(new Set([...value].map((v) => snapshot(v, ""))), SET_WRITES);
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

const MAP_WRITES = ["set", "delete", "clear"] as const;
const SET_WRITES = ["add", "delete", "clear"] as const;

function refuseWrite(): never {
  throw new TypeError("The input is frozen: it is what every policy, approver and the handler share (SI-6).");
}

// Own throwing methods shadow the prototype's writers, then freezing stops anyone removing them.
function readOnly<C extends object>(copy: C, writers: readonly string[]): C {
  for (const name of writers) Object.defineProperty(copy, name, { value: refuseWrite });
  return Object.freeze(copy);
}

function copyView(view: ArrayBufferView): ArrayBufferView {
  if (view instanceof DataView) return new DataView(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
  return (view as unknown as { slice(): ArrayBufferView }).slice();
}

function snapshotWithoutToJSON(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || isProxy?.(value) || Array.isArray(value) || value instanceof Date || ArrayBuffer.isView(value) || value instanceof Map || value instanceof Set) return snapshot(value, key);
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
