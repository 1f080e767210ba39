import type { ExposureSurface } from "@orpc-agent/core";
import { formatScope } from "../render/selector.js";
import { canonicalJson } from "../snapshot/canonical-json.js";
import type { RuntimePolicyEntry } from "../snapshot/types.js";
import { RUNTIME_ID, type Change } from "./types.js";

const ALL_SURFACES: readonly ExposureSurface[] = ["direct", "aiSdk", "mcp", "workflow", "test"];

/**
 * Scope drift of one runtime policy present on both sides (docs/architecture/spec/cli.md#cli-7-3). `existing` holds the ids present
 * on both sides: added or removed capabilities keep their own classification and are not scope drift.
 */
export function scopeChanges(
  before: RuntimePolicyEntry,
  after: RuntimePolicyEntry,
  existing: ReadonlySet<string>,
): Change[] {
  const name = after.name;
  if (before.candidates === undefined || after.candidates === undefined) {
    if (before.candidates !== undefined) {
      return [{ kind: "widening", id: RUNTIME_ID, field: "runtime.scope", message: `scope of runtime policy ${name} no longer observed` }];
    }
    if (after.candidates !== undefined) {
      const count = after.candidates.length;
      return [{ kind: "neutral", id: RUNTIME_ID, field: "runtime.scope", message: `scope of runtime policy ${name} now observed (${count} candidate${count === 1 ? "" : "s"})` }];
    }
    return [];
  }

  const changes: Change[] = [];
  const was = new Set(before.candidates);
  const now = new Set(after.candidates);
  for (const id of [...existing].sort()) {
    // Candidates are where a policy may run, so leaving them removes a control (ADR-018).
    if (was.has(id) && !now.has(id)) {
      changes.push({ kind: "widening", id, field: "runtime.scope", message: `left the candidates of runtime policy ${name}` });
    }
    if (!was.has(id) && now.has(id)) {
      changes.push({ kind: "narrowing", id, field: "runtime.scope", message: `joined the candidates of runtime policy ${name}` });
    }
  }

  const wasSurfaces = before.scope?.surfaces ?? ALL_SURFACES;
  const nowSurfaces = after.scope?.surfaces ?? ALL_SURFACES;
  for (const surface of ALL_SURFACES) {
    if (wasSurfaces.includes(surface) && !nowSurfaces.includes(surface)) {
      changes.push({ kind: "widening", id: RUNTIME_ID, field: "runtime.surfaces", message: `runtime policy ${name} no longer applies on ${surface}` });
    }
    if (!wasSurfaces.includes(surface) && nowSurfaces.includes(surface)) {
      changes.push({ kind: "narrowing", id: RUNTIME_ID, field: "runtime.surfaces", message: `runtime policy ${name} now applies on ${surface}` });
    }
  }

  changes.push(...viaChanges(name, before.scope?.via, after.scope?.via));

  if (changes.length === 0 && canonicalJson(comparable(before.scope)) !== canonicalJson(comparable(after.scope))) {
    changes.push({
      kind: "neutral",
      id: RUNTIME_ID,
      field: "runtime.scope",
      message: `selector of runtime policy ${name} changed: ${formatScope(before.scope)} → ${formatScope(after.scope)}`,
    });
  }
  return changes;
}

// Absent scope ≡ {} ≡ everything (docs/architecture/spec/cli.md#cli-6-2); an empty `capabilities` selects everything too.
function comparable(scope: RuntimePolicyEntry["scope"]): object {
  if (scope === undefined) return {};
  const { capabilities, surfaces, via } = scope;
  return {
    ...(capabilities !== undefined && Object.keys(capabilities).length > 0 ? { capabilities } : {}),
    ...(surfaces !== undefined ? { surfaces } : {}),
    ...(via !== undefined ? { via } : {}),
  };
}

/** `scope.via` (acting agents): fewer agents under a policy removes a control from the rest; absent = every request. */
function viaChanges(name: string, before: readonly string[] | undefined, after: readonly string[] | undefined): Change[] {
  if (before === undefined && after === undefined) return [];
  const change = (kind: Change["kind"], message: string): Change => ({ kind, id: RUNTIME_ID, field: "runtime.via", message });
  if (before === undefined) return [change("widening", `runtime policy ${name} now applies only via ${after!.join("|") || "(none)"}`)];
  if (after === undefined) return [change("narrowing", `runtime policy ${name} now applies whatever the acting agent`)];
  const changes: Change[] = [];
  for (const id of before) if (!after.includes(id)) changes.push(change("widening", `runtime policy ${name} no longer applies via ${id}`));
  for (const id of after) if (!before.includes(id)) changes.push(change("narrowing", `runtime policy ${name} now applies via ${id}`));
  return changes;
}
