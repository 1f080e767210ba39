export { CHANGE_KINDS } from "@orpc-agent/core/drift";
export type { Change, ChangeKind } from "@orpc-agent/core/drift";

/** The id runtime-wide changes carry (docs/architecture/spec/cli.md#cli-7). */
export const RUNTIME_ID = "(runtime)";
