// The steps handle and its per-call options, shared by the files that implement them.
import type { RemoteExecutionResult } from "@orpc-agent/core/client";

/** Options of `steps.invoke` (DBOSCapabilitySteps). */
export type DBOSInvokeOptions = {
  /** Unique within one workflow run, `/^[A-Za-z0-9._-]{1,64}$/`; forms the invocation id `dbos:<workflowId>:<key>`. */
  key: string;
  /** Stop waiting for the approval decision after this long and return what `resume` answers then; unset, waits until decided or expired. */
  approvalMaxWaitMs?: number;
};

/** Whom to wake: the workflow suspended on this approval, or the one waiting on this invocation's resolution. */
export type WakeTarget = { approvalId: string } | { invocationId: string };

/** What createDBOSCapabilitySteps returns. */
export type DBOSCapabilitySteps = {
  /**
   * Invokes a capability as a durable step of the calling DBOS workflow, on surface `"workflow"`. Waits for
   * approval decisions and (by default) for resolutions of unknown outcomes, durably; never retried by DBOS.
   */
  invoke<O = unknown>(capabilityId: string, input: unknown, o: DBOSInvokeOptions): Promise<RemoteExecutionResult<O>>;
  /** Sends the decision or resolution message the waiting step listens for. Call it outside workflows. */
  wake(target: WakeTarget): Promise<void>;
};
