import type { AgentMeta, PolicyScope } from "../capability/types.js";
import { EXPOSURE_SURFACES, RISK_LEVELS, SIDE_EFFECTS, type ExposureSurface } from "../vocabulary/types.js";
import { describeValue } from "../internal/describe-value.js";

const SCOPE_KEYS = ["capabilities", "surfaces", "via"];
const SELECTOR_KEYS = ["ids", "tags", "sideEffects", "risks"];

type CapabilitySelectors = NonNullable<PolicyScope["capabilities"]>;

/**
 * Validates a policy scope and returns its normalized, frozen form (docs/architecture/spec/core.md#core-3, ADR-018):
 * `ids`/`tags` deduplicated and sorted, enum lists deduplicated in canonical order.
 * Fields given as `undefined` count as absent. `owner` names the policy in error messages.
 */
export function normalizePolicyScope(scope: unknown, owner?: string): PolicyScope {
  const where = owner === undefined ? "Policy scope" : `Policy "${owner}": scope`;
  const record = plainRecord(scope, where, SCOPE_KEYS);
  const out: { capabilities?: CapabilitySelectors; surfaces?: readonly ExposureSurface[]; via?: readonly string[] } = {};
  if (record.capabilities !== undefined) out.capabilities = normalizeSelectors(record.capabilities, `${where}.capabilities`);
  if (record.surfaces !== undefined) {
    out.surfaces = canonicalEnumList(record.surfaces, `${where}.surfaces`, EXPOSURE_SURFACES);
  }
  if (record.via !== undefined) out.via = sortedStringList(record.via, `${where}.via`);
  return Object.freeze(out);
}

/**
 * Whether a scope's `via` selector admits the request's acting agent. Checked per call, after the static
 * `(capability, surface)` match: a request without an acting agent matches no present `via` list.
 */
export function policyScopeAdmitsActor(scope: PolicyScope | undefined, actor: { via?: { id: string } }): boolean {
  const via = scope?.via;
  if (via === undefined) return true;
  const id = actor.via?.id;
  return id !== undefined && via.includes(id);
}

/**
 * Whether a scope selects `(capability, surface)`: AND across fields, ANY within a field;
 * a missing scope or field selects all, a present empty array selects none (docs/architecture/spec/core.md#core-3).
 * With `surface` undefined the `surfaces` field is not consulted.
 */
export function policyScopeMatches(
  scope: PolicyScope | undefined,
  capability: { id: string; meta: AgentMeta },
  surface?: ExposureSurface,
): boolean {
  if (scope === undefined) return true;
  if (surface !== undefined && scope.surfaces !== undefined && !scope.surfaces.includes(surface)) return false;
  const selectors = scope.capabilities;
  if (selectors === undefined) return true;
  const { meta } = capability;
  if (selectors.ids !== undefined && !selectors.ids.includes(capability.id)) return false;
  if (selectors.sideEffects !== undefined && !selectors.sideEffects.includes(meta.sideEffect)) return false;
  if (selectors.risks !== undefined && !selectors.risks.includes(meta.risk)) return false;
  if (selectors.tags !== undefined) {
    // An untagged capability has no tag to match, so it never satisfies a tags selector.
    const tags = meta.tags ?? [];
    if (!selectors.tags.some((tag) => tags.includes(tag))) return false;
  }
  return true;
}

function normalizeSelectors(value: unknown, where: string): CapabilitySelectors {
  const record = plainRecord(value, where, SELECTOR_KEYS);
  const out: {
    ids?: readonly string[];
    tags?: readonly string[];
    sideEffects?: CapabilitySelectors["sideEffects"];
    risks?: CapabilitySelectors["risks"];
  } = {};
  if (record.ids !== undefined) out.ids = sortedStringList(record.ids, `${where}.ids`);
  if (record.tags !== undefined) out.tags = sortedStringList(record.tags, `${where}.tags`);
  if (record.sideEffects !== undefined) {
    out.sideEffects = canonicalEnumList(record.sideEffects, `${where}.sideEffects`, SIDE_EFFECTS);
  }
  if (record.risks !== undefined) out.risks = canonicalEnumList(record.risks, `${where}.risks`, RISK_LEVELS);
  return Object.freeze(out);
}

function plainRecord(value: unknown, where: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`${where} must be an object.`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${where} has unknown key "${key}"; allowed keys: ${allowed.join(", ")}.`);
    }
  }
  return value as Record<string, unknown>;
}

function sortedStringList(value: unknown, where: string): readonly string[] {
  if (!Array.isArray(value)) throw new TypeError(`${where} must be an array of non-empty strings.`);
  for (const entry of value) {
    if (typeof entry !== "string" || entry.length === 0) {
      throw new TypeError(`${where} must contain only non-empty strings; got ${describeValue(entry)}.`);
    }
  }
  return Object.freeze([...new Set(value as string[])].sort());
}

function canonicalEnumList<T extends string>(value: unknown, where: string, canonical: readonly T[]): readonly T[] {
  if (!Array.isArray(value)) throw new TypeError(`${where} must be an array; allowed values: ${canonical.join(", ")}.`);
  for (const entry of value) {
    if (!(canonical as readonly unknown[]).includes(entry)) {
      throw new TypeError(`${where} has invalid value ${describeValue(entry)}; allowed values: ${canonical.join(", ")}.`);
    }
  }
  return Object.freeze(canonical.filter((member) => value.includes(member)));
}
