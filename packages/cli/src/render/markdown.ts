import { groupByKind } from "../drift/gate.js";
import type { Change, ChangeKind } from "../drift/types.js";
import { driftHeadline } from "./drift-headline.js";

const MARK: Record<ChangeKind, string> = { widening: "🔴", narrowing: "🔵", neutral: "⚪" };

/** `check --format md` (docs/architecture/spec/cli.md#cli-8-4): a bold count line and one table grouped by kind, for a PR comment. */
export function renderMarkdown(changes: readonly Change[]): string {
  if (changes.length === 0) return "**No capability drift.**\n";
  const lines = [`**${driftHeadline(changes)}**`, "", "| | Capability | Field | Change |", "|---|---|---|---|"];
  for (const [kind, group] of groupByKind(changes)) {
    for (const change of group) {
      lines.push(`| ${MARK[kind]} ${kind} | ${cell(change.id)} | ${cell(change.field)} | ${cell(change.message)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replaceAll("|", "\\|");
}
