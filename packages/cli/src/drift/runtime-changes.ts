import type { CapabilitySnapshot, RuntimePolicyEntry } from "../snapshot/types.js";
import { pairByOccurrence } from "@orpc-agent/core/drift";
import { scopeChanges } from "./scope-changes.js";
import { RUNTIME_ID, type Change } from "./types.js";

/** Runtime-policy drift (docs/architecture/spec/cli.md#cli-7-3). Absent `runtime` means not observed, never "none". */
export function runtimeChanges(before: CapabilitySnapshot, after: CapabilitySnapshot): Change[] {
  const was = before.runtime;
  const now = after.runtime;
  if (was === undefined && now === undefined) return [];
  if (was === undefined && now !== undefined) {
    // The app did not change; the tool started looking. Notice (a) tells CI to rewrite the baseline.
    const count = now.policies.length;
    return [{ kind: "neutral", id: RUNTIME_ID, field: "runtime", message: `runtime policies now observed (${count} configured)` }];
  }
  if (was !== undefined && now === undefined) {
    return [{ kind: "widening", id: RUNTIME_ID, field: "runtime", message: "runtime policies no longer observed: a removed runtime policy would go unseen" }];
  }
  return policyListChanges(was!.policies, now!.policies, existingIds(before, after));
}

function policyListChanges(before: RuntimePolicyEntry[], after: RuntimePolicyEntry[], existing: ReadonlySet<string>): Change[] {
  const changes: Change[] = [];
  // Enforced and shadow entries pair apart, so a policy moving between modes is a removal on one side and an
  // addition on the other, classified below as the mode change it is.
  const enforcedChanges = entryChanges(before.filter((p) => !isShadow(p)), after.filter((p) => !isShadow(p)), existing, false);
  const shadowChanges = entryChanges(before.filter(isShadow), after.filter(isShadow), existing, true);
  const toShadow = enforcedChanges.removed.filter((name) => shadowChanges.added.includes(name));
  const toEnforced = enforcedChanges.added.filter((name) => shadowChanges.removed.includes(name));
  const push = (kind: Change["kind"], names: readonly string[], message: string) => {
    if (names.length > 0) changes.push({ kind, id: RUNTIME_ID, field: "runtime.policies", message: `${message}: ${names.join(", ")}` });
  };
  push("widening", toShadow, "runtime policy now in shadow mode, no longer enforced");
  push("narrowing", toEnforced, "runtime shadow policy now enforced");
  push("widening", enforcedChanges.removed.filter((name) => !toShadow.includes(name)), "runtime policy removed");
  push("narrowing", enforcedChanges.added.filter((name) => !toEnforced.includes(name)), "runtime policy added");
  // A shadow policy decides nothing: adding, removing or rescoping one changes no reach.
  push("neutral", shadowChanges.removed.filter((name) => !toEnforced.includes(name)), "runtime shadow policy removed");
  push("neutral", shadowChanges.added.filter((name) => !toShadow.includes(name)), "runtime shadow policy added");
  changes.push(...enforcedChanges.changes, ...shadowChanges.changes);
  return changes;
}

const isShadow = (policy: RuntimePolicyEntry) => policy.mode === "shadow";

function entryChanges(
  before: RuntimePolicyEntry[],
  after: RuntimePolicyEntry[],
  existing: ReadonlySet<string>,
  shadow: boolean,
): { removed: string[]; added: string[]; changes: Change[] } {
  const changes: Change[] = [];
  const { removed, added, reordered, pairs } = pairByOccurrence(
    before.map((policy) => policy.name),
    after.map((policy) => policy.name),
  );
  if (reordered) {
    // Order decides the recorded denier and how the shared deadline is spent.
    const names = (list: RuntimePolicyEntry[]) => list.map((policy) => policy.name).join(", ");
    changes.push({ kind: "neutral", id: RUNTIME_ID, field: "runtime.policies", message: `runtime policy order changed: ${names(before)} → ${names(after)}` });
  }

  const inAfterOrder = [...pairs].sort((x, y) => x[1] - y[1]);
  for (const [beforeIndex, afterIndex] of inAfterOrder) {
    const was = before[beforeIndex] as RuntimePolicyEntry;
    const now = after[afterIndex] as RuntimePolicyEntry;
    for (const phase of was.phases) {
      if (!now.phases.includes(phase)) {
        changes.push({ kind: "widening", id: RUNTIME_ID, field: "runtime.phases", message: `runtime policy ${now.name} no longer runs at ${phase}` });
      }
    }
    for (const phase of now.phases) {
      if (!was.phases.includes(phase)) {
        changes.push({ kind: "narrowing", id: RUNTIME_ID, field: "runtime.phases", message: `runtime policy ${now.name} now also runs at ${phase}` });
      }
    }
    changes.push(...scopeChanges(was, now, existing));
  }
  const label = shadow ? "runtime shadow policy" : "runtime policy";
  return {
    removed,
    added,
    changes: shadow
      ? changes.map((change) => ({ ...change, kind: "neutral" as const, message: change.message.replace("runtime policy", label) }))
      : changes,
  };
}

function existingIds(before: CapabilitySnapshot, after: CapabilitySnapshot): Set<string> {
  const afterIds = new Set(after.capabilities.map((capability) => capability.id));
  return new Set(before.capabilities.map((capability) => capability.id).filter((id) => afterIds.has(id)));
}
