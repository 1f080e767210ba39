import { inventoryModel } from "../render/inventory-model.js";
import type { Cell } from "../render/style.js";
import { renderTable, width } from "../render/table.js";
import type { Verbosity } from "../render/verbosity.js";
import type { CapabilitySnapshot, EntrySource } from "../snapshot/types.js";
import type { Element, UiModules } from "./ui-modules.js";

/**
 * The Ink inventory (docs/architecture/spec/cli.md#cli-8-4): the same model, levels and colours as the plain renderer, with the
 * runtime state as a panel.
 */
export function inventoryView(
  { ink, react }: UiModules,
  snapshot: CapabilitySnapshot,
  entrySource: EntrySource,
  verbosity: Verbosity,
): Element {
  const h = react.createElement;
  const { Box, Text } = ink;
  const model = inventoryModel(snapshot, entrySource);
  const text = (cell: Cell, key?: string | number) =>
    h(Text, { key, bold: cell.style === "bold", dimColor: cell.style === "dim", color: colorOf(cell.style) }, cell.text);

  const headline = h(Text, { bold: true }, model.headline);
  if (verbosity === "min") return h(Box, { flexDirection: "column" }, headline);

  const all = [model.columns, ...model.rows.map((row) => row.cells)];
  const widths = model.columns.map((_, index) => Math.max(...all.map((row) => width(row[index]?.text ?? ""))) + 2);
  const tableRow = (cells: Cell[], key: string | number) =>
    h(Box, { key, flexDirection: "row" }, ...cells.map((cell, index) => h(Box, { key: index, width: widths[index], flexShrink: 0 }, text(cell))));

  const rows = model.rows.map((row, index) =>
    h(
      Box,
      { key: index, flexDirection: "column" },
      tableRow(row.cells, "cells"),
      ...(verbosity === "detail" ? row.details.map((detail, line) => h(Text, { key: `d${line}`, dimColor: true }, `  ${detail}`)) : []),
    ),
  );

  const runtime = model.runtime;
  const panelBody =
    runtime.state === "not-observed"
      ? runtime.why.map((line, index) => h(Text, { key: index }, line))
      : runtime.state === "observed"
        ? [
            ...renderTable(runtime.rows, false).map((line, index) => h(Text, { key: index }, line)),
            h(Text, { key: "caveat", dimColor: true }, runtime.caveat),
          ]
        : [];
  const panel = h(
    Box,
    { flexDirection: "column", borderStyle: "round", borderColor: runtime.state === "not-observed" ? "yellow" : "gray", paddingX: 1, marginTop: 1 },
    h(Text, { bold: true, color: runtime.state === "not-observed" ? "yellow" : undefined }, runtime.title),
    ...panelBody,
  );

  const list = (title: string, items: string[]) =>
    items.length === 0
      ? null
      : h(Box, { flexDirection: "column", marginTop: 1 }, h(Text, { bold: true }, title), ...items.map((item) => h(Text, { key: item }, `  ${item}`)));

  return h(
    Box,
    { flexDirection: "column" },
    headline,
    h(Box, { flexDirection: "column", marginTop: 1 }, tableRow(model.columns, "header"), ...rows),
    panel,
    list("Unexposed — defined, reachable on no surface", model.unexposed),
    list("Excluded — no meta.agent", model.excluded),
  );
}

function colorOf(style: Cell["style"]): string | undefined {
  return style === undefined || style === "bold" || style === "dim" ? undefined : style;
}
