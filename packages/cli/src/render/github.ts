import type { Change, ChangeKind } from "../drift/types.js";

const LEVEL: Record<ChangeKind, "error" | "warning" | "notice"> = { widening: "error", narrowing: "warning", neutral: "notice" };

/**
 * `check --format github` (docs/architecture/spec/cli.md#cli-8-4): one workflow annotation per change, in generation order;
 * nothing when clean.
 *
 * @example
 * import { renderGithub, type Change } from "@orpc-agent/cli";
 * declare const changes: Change[]; // one widening: orders.refund newly exposed on mcp
 * renderGithub(changes); // "::error title=widening: orders.refund (expose)::orders.refund — now exposed on mcp\n"
 */
export function renderGithub(changes: readonly Change[]): string {
  return changes
    .map((change) => {
      const id = clean(change.id);
      return `::${LEVEL[change.kind]} title=${change.kind}: ${id} (${clean(change.field)})::${id} — ${clean(change.message)}\n`;
    })
    .join("");
}

// A newline would end the annotation and `::` would start a new command.
function clean(text: string): string {
  return text.replace(/\r?\n/g, " ").replaceAll("::", ":");
}
