import { EXPOSURE_SURFACES, RISK_LEVELS, SIDE_EFFECTS } from "../vocabulary/types.js";
import { describeValue } from "../internal/describe-value.js";
import { isPlainObject } from "../internal/plain-object.js";
import type { AgentCapability, CapabilityQuery } from "./types.js";

type CapabilityPredicate = (capability: AgentCapability) => boolean;

/**
 * Turns a `filter` argument into a predicate (docs/architecture/spec/core.md#core-2-3): query fields AND, each array is
 * any-of (an empty array matches nothing), `surface` means `expose[surface] === true`, and an
 * untagged capability matches no `tags`. A malformed query throws `TypeError` rather than
 * silently matching everything (a misspelt `sideEffects` would otherwise widen the registry).
 */
export function toCapabilityPredicate(query: CapabilityQuery | CapabilityPredicate): CapabilityPredicate {
  if (typeof query === "function") return query;
  if (!isPlainObject(query)) {
    throw new TypeError(`registry.filter(query): query must be a CapabilityQuery object or a predicate, got ${describeValue(query)}`);
  }
  for (const key of Object.keys(query)) {
    if (key !== "surface" && key !== "tags" && key !== "sideEffect" && key !== "risk") {
      throw new TypeError(`registry.filter(query): unknown query key "${key}" (expected surface, tags, sideEffect, risk)`);
    }
  }
  const { surface, tags, sideEffect, risk } = query;
  if (surface !== undefined && !EXPOSURE_SURFACES.includes(surface)) {
    throw new TypeError(`registry.filter(query): surface must be one of ${EXPOSURE_SURFACES.join(", ")}, got ${describeValue(surface)}`);
  }
  checkList("tags", tags, undefined);
  checkList("sideEffect", sideEffect, SIDE_EFFECTS);
  checkList("risk", risk, RISK_LEVELS);

  return (capability) => {
    const meta = capability.meta;
    if (surface !== undefined && meta.expose[surface] !== true) return false;
    if (sideEffect !== undefined && !sideEffect.includes(meta.sideEffect)) return false;
    if (risk !== undefined && !risk.includes(meta.risk)) return false;
    if (tags !== undefined && !(meta.tags ?? []).some((tag) => tags.includes(tag))) return false;
    return true;
  };
}

function checkList(key: string, value: unknown, allowed: readonly string[] | undefined): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    throw new TypeError(`registry.filter(query): ${key} must be an array, got ${describeValue(value)}`);
  }
  for (const item of value) {
    const valid = allowed === undefined ? typeof item === "string" : allowed.includes(item as string);
    if (!valid) {
      const expected = allowed === undefined ? "strings" : `one of ${allowed.join(", ")}`;
      throw new TypeError(`registry.filter(query): ${key} items must be ${expected}, got ${describeValue(item)}`);
    }
  }
}
