import type { CapabilitySnapshot, EntrySource } from "../snapshot/types.js";
import { inventoryModel } from "./inventory-model.js";
import { paint } from "./style.js";
import { renderTable } from "./table.js";
import type { Verbosity } from "./verbosity.js";

/**
 * The plain inventory (docs/architecture/spec/cli.md#cli-8-2), the tested contract: headline, capability table, runtime section,
 * then the unexposed and excluded lists. `min` prints the headline only; `detail` adds dim lines per row.
 *
 * @example
 * import { renderInventory, type CapabilitySnapshot } from "@orpc-agent/cli";
 * declare const snapshot: CapabilitySnapshot;
 * process.stdout.write(renderInventory(snapshot, { color: false }, "governance"));
 */
export function renderInventory(
  snapshot: CapabilitySnapshot,
  mode: { color: boolean },
  entrySource?: EntrySource,
  verbosity: Verbosity = "normal",
): string {
  const { color } = mode;
  const model = inventoryModel(snapshot, entrySource);
  const lines = [paint(model.headline, "bold", color)];
  if (verbosity === "min") return `${lines.join("\n")}\n`;

  lines.push("");
  const table = renderTable([model.columns, ...model.rows.map((row) => row.cells)], color);
  lines.push(table[0] as string);
  model.rows.forEach((row, index) => {
    lines.push(table[index + 1] as string);
    if (verbosity === "detail") lines.push(...row.details.map((detail) => paint(`  ${detail}`, "dim", color)));
  });

  lines.push("", paint(model.runtime.title, "bold", color));
  if (model.runtime.state === "not-observed") lines.push(...model.runtime.why.map((line) => `  ${line}`));
  if (model.runtime.state === "observed") {
    lines.push(...renderTable(model.runtime.rows, color, "  "));
    lines.push(paint(`  ${model.runtime.caveat}`, "dim", color));
  }

  if (model.unexposed.length > 0) {
    lines.push("", paint("Unexposed — defined, reachable on no surface", "bold", color), ...model.unexposed.map((id) => `  ${id}`));
  }
  if (model.excluded.length > 0) {
    lines.push("", paint("Excluded — no meta.agent", "bold", color), ...model.excluded.map((path) => `  ${path}`));
  }
  return `${lines.join("\n")}\n`;
}
