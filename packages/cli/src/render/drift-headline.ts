import { countChanges } from "../drift/gate.js";
import type { Change } from "../drift/types.js";

/** `No capability drift.` or `Capability drift — N change(s)[, W widening]` (docs/architecture/spec/cli.md#cli-8-3). */
export function driftHeadline(changes: readonly Change[]): string {
  if (changes.length === 0) return "No capability drift.";
  const { widening } = countChanges(changes);
  const count = `${changes.length} change${changes.length === 1 ? "" : "s"}`;
  return `Capability drift — ${count}${widening > 0 ? `, ${widening} widening` : ""}`;
}
