// DBOS message topics and step names of the adapter (docs/architecture/spec/distributed.md#distributed-9-2). Step names are part of every
// workflow's recorded history: changing one breaks the replay of runs started before the change.

/** The topic a suspended step waits on for its approval decision. */
export const approvalTopic = (approvalId: string): string => `orpc-agent:${approvalId}`;

/** The topic a step with an unknown outcome waits on for the application's resolution. */
export const invocationTopic = (invocationId: string): string => `orpc-agent:${invocationId}`;

/**
 * The DBOS workflow event a suspended step publishes its approval-required result under, so the application can
 * learn what the workflow waits for with `DBOS.getEvent(workflowId, approvalEventKey(key))`.
 *
 * @example
 * import { DBOS } from "@dbos-inc/dbos-sdk";
 * import type { RemoteExecutionResult } from "@orpc-agent/core/client";
 * import { approvalEventKey } from "@orpc-agent/dbos";
 * declare const workflowId: string;
 * const waiting = await DBOS.getEvent<RemoteExecutionResult>(workflowId, approvalEventKey("refund"), { timeoutSeconds: 30 });
 */
export const approvalEventKey = (key: string): string => `orpc-agent:approval:${key}`;

/** `orpc-agent:<kind>:<key>` for the first step of a kind, then `:<n>` for later ones. */
export function stepName(kind: "invoke" | "resume" | "approval" | "journal", key: string, n: number): string {
  return n === 0 ? `orpc-agent:${kind}:${key}` : `orpc-agent:${kind}:${key}:${n}`;
}
