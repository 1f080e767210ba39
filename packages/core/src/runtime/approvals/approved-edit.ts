import { quorumOf } from "../../approvals/quorum.js";
import type { ApprovalRecord } from "../../approvals/types.js";

/** What an approved-with-changes decision binds instead of the request's input. */
export type ApprovedEdit = { input: unknown; inputHash: string };

/**
 * The approver's edit on the record's decision: `undefined` when there is none, `null` when what is stored cannot
 * be one the runtime bound (an input without its hash or the reverse, a hash that is not a string, an edit on a
 * quorum request, which the runtime never accepts). Resume fails closed on `null` (SI-5).
 */
export function approvedEditOf(record: ApprovalRecord): ApprovedEdit | undefined | null {
  const decision = record.decision;
  const input = decision?.input;
  const inputHash = decision?.inputHash;
  if (input === undefined && inputHash === undefined) return undefined;
  if (input === undefined || typeof inputHash !== "string" || quorumOf(record) > 1) return null;
  return { input, inputHash };
}

/**
 * RFC 6901 pointers to where `after` differs from `before`, sorted: each differing leaf, each key present on one side
 * only, or the whole value where the kinds differ. What the model is told changed; never the values (SI-9).
 */
export function changedPointers(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  collect(before, after, "", out);
  return out.sort();
}

function collect(before: unknown, after: unknown, at: string, out: string[]): void {
  if (Object.is(before, after)) return;
  const kind = kindOf(before);
  if (kind === "leaf" || kind !== kindOf(after)) {
    out.push(at);
    return;
  }
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) collect(a[key], b[key], `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
}

function kindOf(value: unknown): "array" | "object" | "leaf" {
  if (Array.isArray(value)) return "array";
  return typeof value === "object" && value !== null ? "object" : "leaf";
}
