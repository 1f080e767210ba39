import type { StandardSchemaV1 } from "@standard-schema/spec";

export type PublicIssue = { path: string[]; message: string };

/** Issue paths and messages only: never the offending values (docs/architecture/spec/core.md#core-stage-5). */
export function toPublicIssues(issues: readonly StandardSchemaV1.Issue[]): PublicIssue[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((segment) => String(typeof segment === "object" && segment !== null ? segment.key : segment)),
    message: issue.message,
  }));
}
