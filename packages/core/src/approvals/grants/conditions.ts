import { canonicalJson } from "../canonical-json.js";
import type { GrantBudget, GrantCondition } from "./types.js";
import { parsePointer, resolvePointer } from "./pointer.js";

// Grant conditions are judged on the validated input, the value the handler receives (SI-6, SI-13). Every comparison
// is strict and fails closed: no type coercion ("100" is not 100), strings by UTF-16 code units with no Unicode
// normalization (an NFD spelling of an NFC value does not match), numbers by value (1e2 is 100, -0 is 0), ordering
// only between finite numbers.

/** Whether every condition holds on `input`; a condition whose path reaches nothing fails. */
export function conditionsHold(conditions: readonly GrantCondition[], input: unknown): boolean {
  for (const condition of conditions) if (!holds(condition, input)) return false;
  return true;
}

function holds(condition: GrantCondition, input: unknown): boolean {
  const tokens = parsePointer(condition?.path);
  if (tokens === undefined) return false;
  const found = resolvePointer(input, tokens);
  if (found === undefined) return false;
  const actual = found.value;
  const expected = condition.value;
  switch (condition.op) {
    case "eq":
      return jsonEqual(actual, expected);
    case "in":
      return Array.isArray(expected) && expected.some((candidate) => jsonEqual(actual, candidate));
    case "lt":
    case "lte":
    case "gt":
    case "gte":
      return typeof actual === "number" && typeof expected === "number" && Number.isFinite(actual) && Number.isFinite(expected) && ordered(condition.op, actual, expected);
    case "prefix":
      return typeof actual === "string" && typeof expected === "string" && startsAtBoundary(actual, expected);
    default:
      return false;
  }
}

function ordered(op: "lt" | "lte" | "gt" | "gte", actual: number, expected: number): boolean {
  return op === "lt" ? actual < expected : op === "lte" ? actual <= expected : op === "gt" ? actual > expected : actual >= expected;
}

/**
 * Equality of JSON values: primitives strictly (a number equals a number of the same value, so -0 equals 0), objects
 * and arrays by canonical JSON on both sides of the same kind. A value with no canonical form (a function, a Map, a
 * non-finite number) equals nothing.
 */
function jsonEqual(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== "object") {
    if (typeof actual === "number" && !Number.isFinite(actual)) return false;
    return actual === expected;
  }
  if (typeof actual !== "object" || actual === null || Array.isArray(actual) !== Array.isArray(expected)) return false;
  try {
    return canonicalJson(actual) === canonicalJson(expected);
  } catch {
    return false;
  }
}

/** Combining marks, joiners and variation selectors: a code point that changes the character before it. */
const EXTENDS_PREVIOUS = /^[\p{M}\u200C\u200D]/u;

/**
 * `actual` starts with `prefix` in code units, and the match ends between two characters: not inside a surrogate
 * pair, and not before a mark that would change the prefix's last character ("acct_1" does not prefix "acct_1\u0338").
 */
function startsAtBoundary(actual: string, prefix: string): boolean {
  if (!actual.startsWith(prefix)) return false;
  if (actual.length === prefix.length || prefix.length === 0) return true;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) return false;
  return !EXTENDS_PREVIOUS.test(actual.slice(prefix.length, prefix.length + 2));
}

/**
 * The budget amount a call would spend: the finite number ≥ 0 at the budget's path, `-0` counted as 0; `undefined`
 * when the path reaches nothing or something else, and the grant then covers nothing.
 */
export function budgetAmount(budget: GrantBudget, input: unknown): number | undefined {
  const tokens = parsePointer(budget?.path);
  if (tokens === undefined) return undefined;
  const found = resolvePointer(input, tokens);
  const value = found?.value;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return value === 0 ? 0 : value;
}
