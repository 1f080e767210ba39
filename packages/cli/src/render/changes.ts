import { countChanges, groupByKind } from "../drift/gate.js";
import type { Change, ChangeKind } from "../drift/types.js";
import { driftHeadline } from "./drift-headline.js";
import { KIND_STYLE, paint } from "./style.js";
import { renderTable } from "./table.js";
import type { Verbosity } from "./verbosity.js";

const KIND_LABEL: Record<ChangeKind, string> = {
  widening: "WIDENING — the agent gained reach, or a control weakened",
  narrowing: "NARROWING — reach reduced, or a control added",
  neutral: "NEUTRAL — changed, neither wider nor narrower (still review it)",
};

/**
 * The plain drift report (docs/architecture/spec/cli.md#cli-8-3): `No capability drift.` when clean; otherwise the drift headline,
 * then per kind a label and aligned `  <id>  <field>  <message>` rows. `min` prints the headline and the
 * non-zero counts only.
 *
 * @example
 * import { diffSnapshots, renderChanges, type CapabilitySnapshot } from "@orpc-agent/cli";
 * declare const before: CapabilitySnapshot, after: CapabilitySnapshot;
 * process.stdout.write(renderChanges(diffSnapshots(before, after), { color: false }));
 */
export function renderChanges(changes: readonly Change[], mode: { color: boolean }, verbosity: Verbosity = "normal"): string {
  const { color } = mode;
  if (changes.length === 0) return `${driftHeadline(changes)}\n`;
  const lines = [paint(driftHeadline(changes), "bold", color)];
  if (verbosity === "min") {
    const counts = countChanges(changes);
    const parts = (Object.keys(counts) as ChangeKind[])
      .filter((kind) => counts[kind] > 0)
      .map((kind) => paint(`${kind} ${counts[kind]}`, KIND_STYLE[kind], color));
    lines.push(parts.join(" · "));
    return `${lines.join("\n")}\n`;
  }

  // Rows align across all groups so the report reads as one table.
  const groups = groupByKind(changes).filter(([, group]) => group.length > 0);
  const rows = renderTable(
    groups.flatMap(([, group]) => group.map((change) => [{ text: change.id }, { text: change.field, style: "dim" as const }, { text: change.message }])),
    color,
    "  ",
  );
  let next = 0;
  for (const [kind, group] of groups) {
    lines.push("", paint(KIND_LABEL[kind], KIND_STYLE[kind], color));
    lines.push(...rows.slice(next, next + group.length));
    next += group.length;
  }
  return `${lines.join("\n")}\n`;
}
