import { CHANGE_KINDS, type Change, type ChangeKind } from "./types.js";

export type FailOn = "any" | "widening";
export type ChangeCounts = Record<ChangeKind, number>;

/** The changes that fail the gate (docs/architecture/spec/cli.md#cli-7-4): all of them, or only widening. Exit 1 iff non-empty. */
export function failingChanges(changes: readonly Change[], failOn: FailOn): Change[] {
  return failOn === "any" ? [...changes] : changes.filter((change) => change.kind === "widening");
}

export function countChanges(changes: readonly Change[]): ChangeCounts {
  const counts: ChangeCounts = { widening: 0, narrowing: 0, neutral: 0 };
  for (const change of changes) counts[change.kind] += 1;
  return counts;
}

/** Changes grouped by kind (widening, narrowing, neutral), generation order kept within each group. */
export function groupByKind(changes: readonly Change[]): [ChangeKind, Change[]][] {
  return CHANGE_KINDS.map((kind) => [kind, changes.filter((change) => change.kind === kind)]);
}
