import type { Actor, AgentRuntime } from "@orpc-agent/core";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import type { InvocationService } from "@orpc-agent/core/server";

export type DbosCapabilityStepsOptions<TContext> = {
  /** The journaled invocation service; a non-durable journal is refused unless `allowNonDurableJournal`. */
  service: InvocationService;
  /** Builds the runtime for one step execution (docs/architecture/spec/core.md#core-5: one runtime per request). */
  runtime: () => AgentRuntime<TContext> | Promise<AgentRuntime<TContext>>;
  /**
   * The acting identity, read inside each step so attributes are fresh. Trusted only: the engine's persisted
   * initiating identity (e.g. `DBOS.authenticatedUser`) or a deployment identity, never workflow input (SI-3).
   */
  actor: () => Actor | Promise<Actor>;
  /** The application context for that actor. */
  context: (actor: Actor) => TContext | Promise<TContext>;
  /** Longest single wait for a decision or resolution message before the journal or coordinator is read again. Default 60 000. */
  approvalPollMs?: number;
  /** Waiting out an `outcome-unknown` for the application's resolution. Default `{ wait: true, maxWaitMs: 7 days }`. */
  unknown?: { wait: boolean; maxWaitMs?: number };
  /** Lets tests run on the in-memory journal, which forgets everything on restart. */
  allowNonDurableJournal?: boolean;
};

export type DbosInvokeOptions = {
  /** Unique within one workflow run, `/^[A-Za-z0-9._-]{1,64}$/`; forms the invocation id `dbos:<workflowId>:<key>`. */
  key: string;
  /** Stop waiting for the approval decision after this long and return what `resume` answers then. Default: until decided or expired. */
  approvalMaxWaitMs?: number;
};

/** Whom to wake: the workflow suspended on this approval, or the one waiting on this invocation's resolution. */
export type WakeTarget = { approvalId: string } | { invocationId: string };

export type DbosCapabilitySteps = {
  /**
   * Invokes a capability as a durable step of the calling DBOS workflow, on surface `"workflow"`. Waits for
   * approval decisions and (by default) for resolutions of unknown outcomes, durably; never retried by DBOS.
   */
  invoke<O = unknown>(capabilityId: string, input: unknown, o: DbosInvokeOptions): Promise<RemoteExecutionResult<O>>;
  /** Sends the decision or resolution message the waiting step listens for. Call it outside workflows. */
  wake(target: WakeTarget): Promise<void>;
};
