import { MAX_INPUT_DEPTH, MAX_INPUT_VALUES } from "./input-limits.js";
import { enterOpen, isOpen, leaveOpen, type OpenObjects } from "./open-objects.js";

/**
 * The one value every observer of an execution shares (SI-6): policies, the approval request and hash, the audit
 * hash and the handler. Plain objects and arrays are copied and frozen, so getters are read once and the caller can
 * no longer change them; a plain object's `toJSON` is applied here, as canonical JSON applies it, so the handler
 * reads what the hash binds; a `Date` and a typed array are copied (freezing stops neither `setTime` nor index writes),
 * a `Map` or `Set` is copied into one that refuses writes. Other class instances are shared: nothing generic can copy
 * them, and canonical JSON binds only their own enumerable fields.
 *
 * An input no copy can bind is refused with `UnrepresentableInputError`, in time linear in what was read: a cycle, a
 * Proxy (where the platform can tell), nesting past `MAX_INPUT_DEPTH`, more than `MAX_INPUT_VALUES` values (a getter
 * or `toJSON` that makes fresh objects on every read never ends otherwise), or a read that throws.
 * @see docs/architecture/decisions.md#adr-020-what-executes-is-what-was-validated
 */
export function inputSnapshot<T>(value: T, mark?: PlainJsonMark): T {
  return walkInput(value, mark) as T;
}

/**
 * Where a snapshot taken with a mark (only for capabilities that grants may cover) records itself when it holds only
 * plain objects, arrays and JSON primitives (finite numbers, strings, booleans, null, undefined below the top), nested
 * at most `PLAIN_DEPTH` levels: the execution the snapshot belongs to. A field, not a WeakSet entry, which cost more
 * than the whole copy (issue 45).
 */
export type PlainJsonMark = { plainJsonInput?: object };

/**
 * Whether `value` is the very snapshot `mark` recorded as plain JSON. Such a snapshot is deeply frozen, so it has a
 * canonical JSON form for ever: the grant lookup need not serialize it to know (issue 45). Anything else answers
 * false, and whoever asks serializes as before.
 */
export function isPlainJsonSnapshot(value: unknown, mark: PlainJsonMark): boolean {
  return typeof value === "object" && value !== null && mark.plainJsonInput === value;
}

/** Well inside any stack canonical JSON recurses on, so "plain" never promises what serializing could not keep. */
const PLAIN_DEPTH = 64;

type UnrepresentableReason = "cycle" | "proxy" | "too-deep" | "stack" | "too-large" | "unreadable";

const REASONS: Record<UnrepresentableReason, string> = {
  cycle: "The input refers to itself (a cycle).",
  proxy: "The input contains a Proxy.",
  "too-deep": `The input is nested more than ${MAX_INPUT_DEPTH} levels deep.`,
  stack: "The input is nested deeper than the stack allows.",
  "too-large": `The input holds more than ${MAX_INPUT_VALUES} values.`,
  unreadable: "Reading the input threw.",
};

/**
 * Thrown when an input cannot be bound to what executes. Internal: the runtime answers `INPUT_INVALID` with
 * `message` and `path` as the one issue (keys only, never values; the cause stays on the server).
 */
export class UnrepresentableInputError extends Error {
  override readonly name = "UnrepresentableInputError";
  readonly reason: UnrepresentableReason;
  readonly path: string[];

  constructor(reason: UnrepresentableReason, path: string[], options?: { cause?: unknown }) {
    super(REASONS[reason], options);
    this.reason = reason;
    this.path = path;
  }
}

/**
 * What the walk throws while it unwinds: not an Error (no stack capture per level), collecting the path innermost
 * first, so refusing a value d levels down costs O(d).
 */
class Refusal {
  readonly reversedPath: string[] = [];
  #brand = true;
  constructor(
    readonly reason: UnrepresentableReason,
    readonly cause?: unknown,
  ) {}

  /** A private-name check: unlike `instanceof`, it runs no trap of a Proxy thrown by a getter. */
  static is(value: unknown): value is Refusal {
    return typeof value === "object" && value !== null && #brand in value;
  }
}

/**
 * The containers open above the current position (cycle check), the values read so far (budget), and whether
 * everything copied so far is plain JSON (`isPlainJsonSnapshot`).
 */
type Walk = OpenObjects & { values: number; plain: boolean };

function walkInput(value: unknown, mark: PlainJsonMark | undefined): unknown {
  if (typeof value !== "object" || value === null) return value;
  const walk: Walk = { stack: [], deep: undefined, values: 0, plain: true };
  try {
    const copy = snapshot(value, "", walk, 0) as object;
    // An Array.prototype.toJSON (a polluted global) would make canonical JSON rewrite every array: not plain then.
    if (mark !== undefined && walk.plain && (copy as { toJSON?: unknown }).toJSON === undefined && !("toJSON" in Array.prototype)) mark.plainJsonInput = copy;
    return copy;
  } catch (error) {
    const refusal = asRefusal(error);
    throw new UnrepresentableInputError(refusal.reason, refusal.reversedPath.reverse(), { cause: refusal.cause });
  }
}

/** Never throws, whatever was thrown: inspecting a thrown Proxy can run its traps, which may throw in turn. */
function asRefusal(error: unknown): Refusal {
  if (Refusal.is(error)) return error;
  try {
    // The platform's stack overflow: nesting the stack cannot hold, whoever recursed (the walk, a getter, a toJSON).
    if (!isProxy?.(error) && error instanceof RangeError && /call stack/i.test(error.message)) return new Refusal("stack", error);
  } catch {
    // Only a read that threw, however odd the value it threw.
  }
  return new Refusal("unreadable", error);
}

// A Proxy can answer each prototype or property read differently, so no copy of it binds anything: refused where
// the platform can tell (Node), before any trap runs (a revoked one included). Looked up at load time, never
// statically imported, so core loads outside Node; elsewhere the value budget still bounds what its traps cost.
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

/** One position of the input: `value` is what was read there, `key` what JSON.stringify would pass its `toJSON`. */
function snapshot(value: unknown, key: string, walk: Walk, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    if (walk.plain && !isJsonPrimitive(value)) walk.plain = false;
    return value;
  }
  if (isProxy?.(value)) throw new Refusal("proxy");
  // A Date, a view, a Map, a Set or a class instance is not plain JSON (a Date is a string only through its toJSON).
  if (value instanceof Date) return notPlain(walk, new Date(value.getTime()));
  if (ArrayBuffer.isView(value)) return notPlain(walk, copyView(value));
  if (value instanceof Map) return notPlain(walk, map(value, walk, depth));
  if (value instanceof Set) return notPlain(walk, set(value, walk, depth));
  if (Array.isArray(value)) return array(value, walk, depth);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return notPlain(walk, value);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (toJSON !== undefined) walk.plain = false;
  // Called once, with the key as JSON.stringify passes it; its result is snapshotted without a second toJSON.
  if (typeof toJSON === "function") return snapshotWithoutToJSON(toJSON.call(value, key), key, walk, depth);
  return object(value as Record<string, unknown>, walk, depth, proto === null, false);
}

/** A toJSON result: JSON never calls a toJSON found on it, so neither does the copy. */
function snapshotWithoutToJSON(value: unknown, key: string, walk: Walk, depth: number): unknown {
  if (typeof value !== "object" || value === null || isProxy?.(value)) return snapshot(value, key, walk, depth);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return snapshot(value, key, walk, depth);
  return object(value as Record<string, unknown>, walk, depth, proto === null, true);
}

/**
 * Opens a container: past the depth limit, or already open further up (a child leading back to it), it is refused.
 * Closed with `leaveOpen` once its children are copied; a refusal abandons the whole walk, so nothing closes then.
 */
function open(value: object, walk: Walk, depth: number): void {
  if (depth >= MAX_INPUT_DEPTH) throw new Refusal("too-deep");
  if (depth >= PLAIN_DEPTH) walk.plain = false;
  if (isOpen(walk, value)) throw new Refusal("cycle");
  enterOpen(walk, value);
}

/** The refusal to rethrow from a child at `key`, with the key added to its path. */
function at(error: unknown, key: string): Refusal {
  const refusal = asRefusal(error);
  refusal.reversedPath.push(key);
  return refusal;
}

// Each container catches once around its loop, naming the child it was at: the path costs nothing until a refusal.

function array(value: unknown[], walk: Walk, depth: number): unknown {
  open(value, walk, depth);
  // A length past the budget (a sparse `length = 2 ** 32 - 1`) is refused before a single index is read.
  if (value.length > MAX_INPUT_VALUES - walk.values) throw new Refusal("too-large");
  const out: unknown[] = new Array(value.length);
  let i = 0;
  try {
    for (; i < value.length; i++) {
      if (++walk.values > MAX_INPUT_VALUES) throw new Refusal("too-large");
      out[i] = snapshot(value[i], String(i), walk, depth + 1);
    }
  } catch (error) {
    throw at(error, String(i));
  }
  leaveOpen(walk);
  return Object.freeze(out);
}

function object(value: Record<string, unknown>, walk: Walk, depth: number, nullProto: boolean, fromToJSON: boolean): unknown {
  open(value, walk, depth);
  const out: Record<string, unknown> = nullProto ? Object.create(null) : {};
  const keys = Object.keys(value);
  let key = "";
  try {
    for (let k = 0; k < keys.length; k++) {
      key = keys[k]!;
      if (++walk.values > MAX_INPUT_VALUES) throw new Refusal("too-large");
      const item = snapshot(value[key], key, walk, depth + 1);
      // JSON never calls a toJSON found on a toJSON result; keeping it would let the hash apply it a second time.
      if (fromToJSON && key === "toJSON" && typeof item === "function") continue;
      // An own "__proto__" key stays an own key: assigning it would swap the copy's prototype (SI-6).
      if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else out[key] = item;
    }
  } catch (error) {
    throw at(error, key);
  }
  leaveOpen(walk);
  return Object.freeze(out);
}

function map(value: Map<unknown, unknown>, walk: Walk, depth: number): unknown {
  open(value, walk, depth);
  const entries: [unknown, unknown][] = [];
  try {
    for (const [k, v] of value) {
      walk.values += 2;
      if (walk.values > MAX_INPUT_VALUES) throw new Refusal("too-large");
      entries.push([snapshot(k, "", walk, depth + 1), snapshot(v, "", walk, depth + 1)]);
    }
  } catch (error) {
    throw at(error, String(entries.length));
  }
  leaveOpen(walk);
  return readOnly(new Map(entries), MAP_WRITES);
}

function set(value: Set<unknown>, walk: Walk, depth: number): unknown {
  open(value, walk, depth);
  const items: unknown[] = [];
  try {
    for (const v of value) {
      if (++walk.values > MAX_INPUT_VALUES) throw new Refusal("too-large");
      items.push(snapshot(v, "", walk, depth + 1));
    }
  } catch (error) {
    throw at(error, String(items.length));
  }
  leaveOpen(walk);
  return readOnly(new Set(items), SET_WRITES);
}

const MAP_WRITES = ["set", "delete", "clear"] as const;
const SET_WRITES = ["add", "delete", "clear"] as const;

function notPlain<T>(walk: Walk, copy: T): T {
  walk.plain = false;
  return copy;
}

/** A value canonical JSON writes as itself inside a container (`undefined` is dropped or written null there). */
function isJsonPrimitive(value: unknown): boolean {
  return typeof value === "string" || typeof value === "boolean" || value === undefined || value === null || (typeof value === "number" && Number.isFinite(value));
}

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
