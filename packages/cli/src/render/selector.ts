import type { RuntimePolicyEntry } from "../snapshot/types.js";

const SELECTOR_FIELDS = ["ids", "tags", "sideEffects", "risks"] as const;

/**
 * A runtime policy's selector as one short string (docs/architecture/spec/cli.md#cli-8-2): present fields as `field=a|b` joined
 * by ` & `, `[]` as `field=(none)`, no scope as `all`, no candidates as `scope not observed`.
 */
export function formatSelector(policy: RuntimePolicyEntry): string {
  if (policy.candidates === undefined) return "scope not observed";
  return formatScope(policy.scope);
}

/** The selector of a scope alone; absent or empty means every capability on every surface. */
export function formatScope(scope: RuntimePolicyEntry["scope"]): string {
  const parts: string[] = [];
  for (const field of SELECTOR_FIELDS) {
    const values = scope?.capabilities?.[field];
    if (values !== undefined) parts.push(fieldText(field, values));
  }
  if (scope?.surfaces !== undefined) parts.push(fieldText("surfaces", scope.surfaces));
  if (scope?.via !== undefined) parts.push(fieldText("via", scope.via));
  return parts.length === 0 ? "all" : parts.join(" & ");
}

function fieldText(field: string, values: readonly string[]): string {
  return `${field}=${values.length === 0 ? "(none)" : values.join("|")}`;
}
