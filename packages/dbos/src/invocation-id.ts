// Identity of a workflow step's invocation (docs/architecture/spec/distributed.md#distributed-9-2): one fixed scheme, so `wake` finds the
// workflow from the journal row alone and explicit keys survive code edits that shift DBOS operation ordinals.

/** Step keys: explicit, unique per workflow run, free of the `:` separator. */
export const STEP_KEY_PATTERN: RegExp = /^[A-Za-z0-9._-]{1,64}$/;

// core/client's invocation id rule (docs/architecture/spec/distributed.md#distributed-1); re-stated because core does not export it.
const INVOCATION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const PREFIX = "dbos";

/**
 * The invocation id of the step `key` in workflow `workflowId`: `"dbos:" + workflowId + ":" + key`.
 * Throws `TypeError` for an id that could be read two ways (a `:` in the workflow id) or that the journal
 * cannot hold.
 *
 * @example
 * import { dbosInvocationId } from "@orpc-agent/dbos";
 * dbosInvocationId("refund-o_1001", "refund"); // "dbos:refund-o_1001:refund"
 */
export function dbosInvocationId(workflowId: string, key: string): string {
  assertStepKey(key);
  if (typeof workflowId !== "string" || workflowId.length === 0) throw new TypeError("The DBOS workflow id must be a non-empty string.");
  if (workflowId.includes(":")) {
    throw new TypeError(
      `DBOS workflow id ${JSON.stringify(workflowId)} contains ":", which would make "dbos:<workflowId>:<key>" ambiguous; ` +
        "an invocation id has exactly three colon-separated parts, so start the workflow with an id without colons.",
    );
  }
  const invocationId = `${PREFIX}:${workflowId}:${key}`;
  if (!INVOCATION_ID_PATTERN.test(invocationId)) {
    throw new TypeError(
      `DBOS workflow id ${JSON.stringify(workflowId)} cannot form an invocation id: use letters, digits, ".", "_" and "-" only, ` +
        `and keep "dbos:<workflowId>:<key>" within 128 characters.`,
    );
  }
  return invocationId;
}

/** The workflow id inside an invocation id of this scheme, or `undefined` for any other id. */
export function workflowIdOf(invocationId: string): string | undefined {
  const parts = invocationId.split(":");
  if (parts.length !== 3 || parts[0] !== PREFIX || parts[1]!.length === 0 || !STEP_KEY_PATTERN.test(parts[2]!)) return undefined;
  return parts[1];
}

export function assertStepKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || !STEP_KEY_PATTERN.test(key)) {
    throw new TypeError(`The step key must match ${STEP_KEY_PATTERN} (1 to 64 letters, digits, ".", "_" or "-"), got ${JSON.stringify(key)}.`);
  }
}
