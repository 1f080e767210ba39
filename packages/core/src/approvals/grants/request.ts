import { CapabilityError } from "../../errors/capability-error.js";
import { canonicalJson } from "../canonical-json.js";
import { parsePointer } from "./pointer.js";
import type { GrantCondition, GrantConditionOperator, GrantRequest, GrantScope } from "./types.js";

const OPERATORS: readonly GrantConditionOperator[] = ["eq", "in", "lt", "lte", "gt", "gte", "prefix"];
const SCOPES: readonly GrantScope[] = ["conversation", "actor"];
/** Enough for any grant a person can review; more is a mistake or an attempt to hide one condition among many. */
const MAX_GRANT_CONDITIONS = 32;
/** The largest `in` list, and the largest condition value in canonical JSON characters. */
const MAX_IN_VALUES = 256;
const MAX_CONDITION_CHARS = 8_192;

/**
 * The grant request read once, as JSON (what every store keeps and an approver is shown), and checked: `uses` a whole
 * number ≥ 1, `ttlMs` a finite number > 0, `scope` one of the two, at most {@link MAX_GRANT_CONDITIONS} conditions,
 * each `{ path, op, value }` with a valid JSON Pointer, a known operator and a value of the operator's kind, and an
 * optional `budget` `{ path, max }` with `max` finite and > 0. Anything else is `INPUT_INVALID` (stage `approval`)
 * naming the field, never its value.
 */
export function readGrantRequest(given: unknown): GrantRequest {
  let copy: unknown;
  try {
    const text = JSON.stringify(given);
    copy = text === undefined ? undefined : JSON.parse(text);
  } catch {
    throw invalid([], "The grant must be a JSON object.");
  }
  if (!isRecord(copy)) throw invalid([], "The grant must be an object { uses, ttlMs, scope, conditions?, budget? }.");
  for (const key of Object.keys(copy)) {
    if (!["uses", "ttlMs", "scope", "conditions", "budget"].includes(key)) throw invalid([key], "Unknown grant field.");
  }
  const { uses, ttlMs, scope, conditions, budget } = copy;
  if (typeof uses !== "number" || !Number.isSafeInteger(uses) || uses < 1) throw invalid(["uses"], "uses must be a whole number of at least 1.");
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) throw invalid(["ttlMs"], "ttlMs must be a finite number of milliseconds above 0.");
  if (!SCOPES.includes(scope as GrantScope)) throw invalid(["scope"], 'scope must be "conversation" or "actor".');
  const request: GrantRequest = { uses, ttlMs, scope: scope as GrantScope, conditions: readConditions(conditions) };
  if (budget !== undefined) {
    if (!isRecord(budget) || Object.keys(budget).some((key) => key !== "path" && key !== "max")) throw invalid(["budget"], "budget must be { path, max }.");
    if (parsePointer(budget.path) === undefined) throw invalid(["budget", "path"], "budget.path must be a JSON Pointer (RFC 6901) such as /amount.");
    const max = budget.max;
    if (typeof max !== "number" || !Number.isFinite(max) || max <= 0) throw invalid(["budget", "max"], "budget.max must be a finite number above 0.");
    request.budget = { path: budget.path as string, max };
  }
  return request;
}

function readConditions(given: unknown): GrantCondition[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) throw invalid(["conditions"], "conditions must be an array of { path, op, value }.");
  if (given.length > MAX_GRANT_CONDITIONS) throw invalid(["conditions"], `A grant takes at most ${MAX_GRANT_CONDITIONS} conditions.`);
  return given.map((condition: unknown, index): GrantCondition => {
    const at = (field?: string) => (field === undefined ? ["conditions", index] : ["conditions", index, field]);
    if (!isRecord(condition) || Object.keys(condition).some((key) => key !== "path" && key !== "op" && key !== "value") || !("value" in condition)) {
      throw invalid(at(), "A condition is { path, op, value }.");
    }
    if (parsePointer(condition.path) === undefined) throw invalid(at("path"), "path must be a JSON Pointer (RFC 6901) such as /customerId.");
    const op = condition.op as GrantConditionOperator;
    if (!OPERATORS.includes(op)) throw invalid(at("op"), `op must be one of ${OPERATORS.join(", ")}.`);
    const value = condition.value;
    if (canonicalJson(value).length > MAX_CONDITION_CHARS) throw invalid(at("value"), `A condition value takes at most ${MAX_CONDITION_CHARS} characters of JSON.`);
    const kind = valueProblem(op, value);
    if (kind !== undefined) throw invalid(at("value"), kind);
    return { path: condition.path as string, op, value };
  });
}

/** What is wrong with `value` for `op`, if anything: the order operators compare finite numbers, `prefix` strings. */
function valueProblem(op: GrantConditionOperator, value: unknown): string | undefined {
  switch (op) {
    case "in":
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES) return `in takes an array of 1 to ${MAX_IN_VALUES} JSON values.`;
      return value.some((item) => typeof item === "string" && !isWellFormedString(item)) ? "Strings must be well-formed Unicode." : undefined;
    case "lt":
    case "lte":
    case "gt":
    case "gte":
      return typeof value === "number" && Number.isFinite(value) ? undefined : `${op} compares finite numbers only.`;
    case "prefix":
      return typeof value === "string" && value.length > 0 && isWellFormedString(value) ? undefined : "prefix takes a non-empty, well-formed string.";
    default:
      return typeof value === "string" && !isWellFormedString(value) ? "Strings must be well-formed Unicode." : undefined;
  }
}

// A lone surrogate: no UTF-8 store keeps it as written, so a condition holding one could compare differently once stored.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormedString(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(path: (string | number)[], message: string): CapabilityError {
  return new CapabilityError({
    code: "INPUT_INVALID",
    stage: "approval",
    publicMessage: "The grant request is invalid.",
    details: { issues: [{ path: ["grant", ...path], message }] },
    cause: new Error(`Invalid grant request at grant${path.map((p) => `.${p}`).join("")}: ${message}`),
  });
}
