// Canonical JSON: the byte string an approval's input hash is taken over (docs/architecture/spec/core.md#core-10, ADR-012 §5, SI-5).
// Unlike JSON.stringify it sorts keys and refuses values it cannot represent, because
// a hash must never bind less than what executes (docs/architecture/spec/core.md#core-15-item-11).

import { MAX_INPUT_VALUES } from "../internal/input-limits.js";
import { enterOpen, isOpen, leaveOpen, type OpenObjects } from "../internal/open-objects.js";

/**
 * Thrown when a value has no canonical JSON form. Internal: the runtime maps it to
 * `APPROVAL_UNSERIALIZABLE_INPUT`. `path` locates the offending value (keys only, never values).
 */
export class UnserializableInputError extends Error {
  override readonly name = "UnserializableInputError";
  readonly reason: string;
  readonly path: (string | number)[];

  constructor(reason: string, options?: { cause?: unknown; path?: (string | number)[] }) {
    const path = options?.path ?? [];
    super(`Input has no canonical JSON form: ${reason} at ${formatPath(path)}.`, { cause: options?.cause });
    this.reason = reason;
    this.path = path;
  }

}

/**
 * What `serialize` throws while a failure unwinds: not an Error (no stack capture per level), collecting path
 * segments innermost first. One UnserializableInputError is built from it at the top, so refusing a value nested
 * d levels deep costs O(d), not O(d²) — a few kilobytes of nested arrays must not buy seconds of CPU.
 */
class Unrepresentable {
  readonly reversedPath: (string | number)[] = [];
  #brand = true;
  constructor(readonly reason: string) {}

  /** A private-name check: unlike `instanceof`, it runs no trap of a Proxy that a `toJSON` threw. */
  static is(value: unknown): value is Unrepresentable {
    return typeof value === "object" && value !== null && #brand in value;
  }
}

function formatPath(path: (string | number)[]): string {
  let out = "$";
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : `.${segment}`;
  return out;
}

/**
 * Serializes `value` as canonical JSON: no insignificant whitespace, object keys in default
 * JS sort order, `undefined` properties dropped, array holes and `undefined` elements as `null`.
 * Throws `UnserializableInputError` for anything else JSON.stringify would silently lose.
 *
 * @example
 * import { canonicalJson } from "./canonical-json.js";
 * canonicalJson({ b: 1, a: [true, undefined] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  let out: string | undefined;
  try {
    out = serialize(value, "", { stack: [], deep: undefined, values: 0 }, true);
  } catch (error) {
    if (Unrepresentable.is(error)) throw new UnserializableInputError(error.reason, { path: error.reversedPath.reverse() });
    // A throwing getter or toJSON, or nesting too deep for the stack: no canonical form either.
    throw new UnserializableInputError("reading the value threw", { cause: error });
  }
  if (out === undefined) throw new UnserializableInputError("undefined");
  return out;
}

/** The walk's state: the containers open above this point (cycle check) and the values written so far (budget). */
type Walk = OpenObjects & { values: number };

/** One more value written; a `toJSON` minting fresh objects on every call must not keep the walk going for ever. */
function count(walk: Walk): void {
  if (++walk.values > MAX_INPUT_VALUES) throw new Unrepresentable(`more than ${MAX_INPUT_VALUES} values`);
}

/** Returns the canonical text, or `undefined` when the value is to be dropped (an undefined property). */
function serialize(value: unknown, key: string | number, walk: Walk, honourToJSON: boolean): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new Unrepresentable(`non-finite number ${value}`);
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return undefined;
    case "bigint":
      throw new Unrepresentable("bigint");
    case "function":
      throw new Unrepresentable("function value");
    case "symbol":
      throw new Unrepresentable("symbol value");
  }
  if (value === null) return "null";
  const object = value as object;

  if (honourToJSON) {
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    // Called once per position, as JSON.stringify does; its result follows the same rules.
    if (typeof toJSON === "function") return serialize(toJSON.call(object, String(key)), key, walk, false);
  }

  if (isOpen(walk, object)) throw new Unrepresentable("cycle");
  enterOpen(walk, object);
  try {
    if (Array.isArray(object)) return serializeArray(object, walk);
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (proto as { constructor?: { name?: unknown } }).constructor?.name;
      throw new Unrepresentable(`non-plain object${typeof kind === "string" && kind ? ` (${kind})` : ""}`);
    }
    return serializeObject(object as Record<string, unknown>, walk);
  } finally {
    leaveOpen(walk);
  }
}

function serializeArray(array: readonly unknown[], walk: Walk): string {
  // A sparse array's length costs nothing to set: past the budget it is refused before a single index is read.
  if (array.length > MAX_INPUT_VALUES - walk.values) throw new Unrepresentable(`more than ${MAX_INPUT_VALUES} values`);
  let out = "[";
  for (let i = 0; i < array.length; i++) {
    let item: string | undefined;
    try {
      count(walk);
      item = serialize(array[i], i, walk, true);
    } catch (error) {
      if (Unrepresentable.is(error)) error.reversedPath.push(i);
      throw error;
    }
    if (i > 0) out += ",";
    out += item ?? "null";
  }
  return out + "]";
}

function serializeObject(object: Record<string, unknown>, walk: Walk): string {
  // Object.keys skips symbol keys; default sort compares UTF-16 code units.
  const keys = Object.keys(object).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    let item: string | undefined;
    try {
      count(walk);
      item = serialize(object[key], key, walk, true);
    } catch (error) {
      if (Unrepresentable.is(error)) error.reversedPath.push(key);
      throw error;
    }
    if (item === undefined) continue;
    if (!first) out += ",";
    out += JSON.stringify(key) + ":" + item;
    first = false;
  }
  return out + "}";
}
