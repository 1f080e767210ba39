import { countChanges, type ChangeCounts, type FailOn } from "../drift/gate.js";
import type { Change } from "../drift/types.js";

/** The machine-readable drift report of `check --format json` (docs/architecture/spec/cli.md#cli-8-4). */
export type DriftReport = { failOn: FailOn; counts: ChangeCounts; changes: Change[] };

/** `JSON.stringify(report, null, 2) + "\n"`; never coloured, `changes` in generation order. */
export function renderJson(changes: readonly Change[], failOn: FailOn): string {
  const report: DriftReport = {
    failOn,
    counts: countChanges(changes),
    changes: changes.map(({ kind, id, field, message }) => ({ kind, id, field, message })),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
