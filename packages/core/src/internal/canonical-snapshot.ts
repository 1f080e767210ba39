import { isProxy, snapshot, snapshotWithoutToJSON } from "./input-snapshot.js";

/**
 * `inputSnapshot(value)` and the canonical JSON of that snapshot, in one walk (issue 28: the second walk cost
 * about as much as the SHA-256 it feeds). `canonical` is exactly `canonicalJson(value)` of the returned snapshot;
 * it is `undefined` where the walk met anything outside plain JSON (a Date, a Map, a toJSON, a non-finite number,
 * a class instance, deep nesting), and the caller then serializes the snapshot the ordinary way. The snapshot is
 * the same either way, and every property of the input is still read exactly once (SI-6).
 */
export function canonicalSnapshot<T>(value: T): { value: T; canonical: string | undefined } {
  const walk = new Walk();
  const copy = walk.value(value, "", 0);
  // Canonical JSON of the snapshot calls a toJSON its copies inherit, even one a getter added mid-walk: `in`, so a
  // getter installed there is not run here.
  if ("toJSON" in Object.prototype || "toJSON" in Array.prototype) walk.plain = false;
  return { value: copy as T, canonical: walk.plain && walk.text !== undefined ? walk.text : undefined };
}

// Past this depth the rest is copied by `snapshot` alone, so deep input overflows the stack where it did before.
const MAX_DEPTH = 32;

class Walk {
  /** False once the text no longer describes the copy. */
  plain = true;
  /** The canonical text of the value last walked; `undefined` for a value an object drops. */
  text: string | undefined = undefined;

  value(value: unknown, key: string, depth: number): unknown {
    switch (typeof value) {
      case "string":
        this.text = JSON.stringify(value);
        return value;
      case "number":
        if (Number.isFinite(value)) this.text = String(value);
        else this.plain = false;
        return value;
      case "boolean":
        this.text = value ? "true" : "false";
        return value;
      case "undefined":
        this.text = undefined;
        return value;
      case "object":
        if (value === null) {
          this.text = "null";
          return value;
        }
        break;
      default:
        this.plain = false;
        return value;
    }
    if (isProxy?.(value)) throw new TypeError("The input contains a Proxy; it cannot be bound to what executes (SI-6).");
    if (depth >= MAX_DEPTH || value instanceof Date || ArrayBuffer.isView(value) || value instanceof Map || value instanceof Set) return this.leave(value, key);
    if (Array.isArray(value)) return this.array(value, depth);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return this.leave(value, key);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      this.plain = false;
      return snapshotWithoutToJSON(toJSON.call(value, key), key);
    }
    return this.object(value as Record<string, unknown>, proto === null, depth);
  }

  private leave(value: unknown, key: string): unknown {
    this.plain = false;
    return snapshot(value, key);
  }

  private array(value: readonly unknown[], depth: number): unknown {
    const out: unknown[] = new Array(value.length);
    let text = "[";
    // `length` is read each time, as inputSnapshot reads it: a getter may shrink or grow the array mid-walk.
    let i = 0;
    for (; i < value.length; i++) {
      const item = this.value(value[i], String(i), depth + 1);
      // An element the prototype chain defines could be a setter that swallows the write (SI-6).
      if (i in Array.prototype) this.plain = false;
      out[i] = item;
      if (i > 0) text += ",";
      text += this.text ?? "null";
    }
    // A shrunk array leaves the copy its first length, with holes the text never wrote.
    if (out.length !== i) this.plain = false;
    this.text = text + "]";
    return Object.freeze(out);
  }

  private object(value: Record<string, unknown>, nullProto: boolean, depth: number): unknown {
    const out: Record<string, unknown> = nullProto ? Object.create(null) : {};
    const keys = Object.keys(value);
    let sorted = true;
    for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
    // Members in key order as they are read; only when the input's own order is not sorted are they kept apart.
    const members: (string | undefined)[] | undefined = sorted ? undefined : new Array(keys.length);
    let text = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = this.value(value[key], key, depth + 1);
      // An own "__proto__" key stays an own key: assigning it would swap the copy's prototype (SI-6).
      if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else {
        // A key Object.prototype also has may be a setter (or read-only) that the write goes to instead (SI-6).
        if (!nullProto && key in Object.prototype) this.plain = false;
        out[key] = item;
      }
      const member = this.text === undefined ? undefined : JSON.stringify(key) + ":" + this.text;
      if (members !== undefined) members[i] = member;
      else if (member !== undefined) text += text.length > 1 ? "," + member : member;
    }
    if (members !== undefined) {
      const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
      for (const i of order) {
        const member = members[i];
        if (member !== undefined) text += text.length > 1 ? "," + member : member;
      }
    }
    this.text = text + "}";
    return Object.freeze(out);
  }
}
