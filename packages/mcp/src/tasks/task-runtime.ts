import type { MCPTaskRecord, MCPTaskStore } from "./task-store.js";

/** What the tasks module keeps per configuration: the store, its timings, and the resumes this process runs. */
export type TaskRuntime = {
  store: MCPTaskStore;
  pollIntervalMs: number;
  retentionMs: number;
  /** How long a running task's lease lasts; the instance running it renews it every third of that. */
  runLeaseMs: number;
  /** Capabilities with `sideEffect` `"none"` or `"read"`: a lapsed task of theirs changed nothing. */
  readOnly: ReadonlySet<string>;
  /**
   * Aborts the resumes running in this process, by {@link runningKey} (principal and task id: a task id alone could be
   * another principal's row in a shared store): how `tasks/cancel` reaches the runtime (SI-12).
   */
  running: Map<string, AbortController>;
  /** Tells the instance running a task that a cancel reached another one; absent: one instance, or none told. */
  cancellations?: TaskCancellations;
  /** Capabilities whose calls always answer with a task (`meta.adapters.mcp.task: "always"`). */
  always: ReadonlySet<string>;
  /** Settles when every resume started here has written its outcome (tests and graceful shutdown). */
  settled: () => Promise<void>;
  track: (work: Promise<void>) => void;
};

/** `tasks.cancellations`: a cancel recorded on one instance, heard by the one running the task. */
export type TaskCancellations = {
  publish(taskId: string): Promise<void> | void;
  subscribe(listener: (taskId: string) => void): (() => void) | void;
};

/** A running task's key in `running`: only its own principal's cancel finds it (SI-3). */
export const runningKey = (record: Pick<MCPTaskRecord, "principal" | "taskId">): string => JSON.stringify([record.principal, record.taskId]);
