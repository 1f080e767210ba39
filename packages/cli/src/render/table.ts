import { paint, type Cell } from "./style.js";

/**
 * Aligned columns (docs/architecture/spec/cli.md#cli-8-2): padded to the widest cell, two-space gaps, last column unpadded,
 * trailing spaces trimmed. Widths count code points of the unpainted text.
 */
export function renderTable(rows: readonly (readonly Cell[])[], color: boolean, indent = ""): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, width(cell.text));
    });
  }
  return rows.map((row) => {
    const parts = row.map((cell, index) => {
      const last = index === row.length - 1;
      const padding = last ? "" : " ".repeat((widths[index] ?? 0) - width(cell.text));
      return paint(cell.text, cell.style, color) + padding;
    });
    return `${indent}${parts.join("  ")}`.replace(/ +$/, "");
  });
}

export function width(text: string): number {
  return [...text].length;
}
