import { PrincipalBoundedMap } from "../approvals/principal-bounded-map.js";

/** A task's status on the wire (SEP-2663). */
export type MCPTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * Where a task stands on the server. `awaiting`: suspended for approval, the URL elicitation (if any) not yet
 * answered; `answered`: the client answered it (never a decision, SI-4), still awaiting the approver; `running`:
 * one poller saw the approval decided and claimed the resume, or a `task: "always"` call runs; `done`: terminal.
 */
export type MCPTaskPhase = "awaiting" | "answered" | "running" | "done";

/**
 * One task, as the store keeps it: JSON only, so a durable store can write it as is. `principal` is the
 * `principalKey` of the caller that created it: every read names it, so another principal's id finds nothing (SI-8).
 */
export type MCPTaskRecord = {
  taskId: string;
  principal: string;
  capabilityId: string;
  /** The approval the call suspended for; absent for a task that has not stopped for approval. */
  approvalId?: string;
  phase: MCPTaskPhase;
  status: MCPTaskStatus;
  statusMessage?: string;
  /** While `awaiting`: the outstanding server-to-client requests (the approval's URL elicitation). */
  inputRequests?: Record<string, unknown>;
  /**
   * While `running`: a `tasks/cancel` asked to stop it. The instance that runs the work aborts it when it reads this,
   * whichever instance the cancel reached (`tasks.cancellations` tells it to read now).
   */
  cancelRequested?: boolean;
  /**
   * While `running`: until when (epoch ms) the instance running the work holds it; renewed while it runs. A read that
   * finds it lapsed ends the task `failed`, outcome unknown, and never runs the work again.
   */
  runLeaseExpiresAt?: number;
  /** When `failed`: the JSON-RPC error a failed task carries on the wire (SEP-2663). */
  error?: { code: number; message: string; data?: Record<string, unknown> };
  /** When `completed`: the `CallToolResult` the call would have answered. */
  result?: Record<string, unknown>;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUpdatedAt: number;
  expiresAt: number;
  /** Bumped by every write: `update` is compare-and-set on it, so of two racing writers exactly one wins. */
  version: number;
};

/**
 * Storage for MCP tasks (issue 47). Every operation is addressed by principal and task id together: there is no
 * lookup by id alone. An expired task reads as absent. `update` writes only when the stored version is
 * `expectedVersion`, and returns whether it did.
 */
export interface MCPTaskStore {
  /** Stores a new task; resolves once a `get` for it would find it (SEP-2663: durably created before answered). */
  create(record: MCPTaskRecord): Promise<void>;
  /** The principal's task, or `undefined` when unknown, another principal's, or expired at `now` (epoch ms). */
  get(principal: string, taskId: string, now: number): Promise<MCPTaskRecord | undefined>;
  /** Writes `next` (stored with version `expectedVersion + 1`) only if the stored version is `expectedVersion`. */
  update(principal: string, taskId: string, expectedVersion: number, next: MCPTaskRecord): Promise<boolean>;
}

/** The in-memory store's bounds: tasks per principal, and tasks in all. */
export type TaskStoreLimits = { perPrincipal: number; total: number };

/** How many tasks one principal, and the whole process, keep in memory by default. */
export const DEFAULT_TASK_LIMITS: TaskStoreLimits = Object.freeze({ perPrincipal: 1_000, total: 10_000 });

/**
 * The in-memory default: per process (tasks do not survive a restart), bounded per principal and in total (the
 * oldest of the largest holder gives way, so abandoned tasks cost their own principal first), expired on read.
 */
export function createInMemoryTaskStore(limits: TaskStoreLimits = DEFAULT_TASK_LIMITS): MCPTaskStore & { readonly size: () => number } {
  const tasks = new PrincipalBoundedMap<MCPTaskRecord>(limits);
  return {
    async create(record) {
      tasks.set(record.principal, record.taskId, structuredClone(record));
    },
    async get(principal, taskId, now) {
      const record = tasks.get(principal, taskId);
      if (record === undefined) return undefined;
      if (!(record.expiresAt > now)) {
        tasks.delete(principal, taskId);
        return undefined;
      }
      return structuredClone(record);
    },
    async update(principal, taskId, expectedVersion, next) {
      const record = tasks.get(principal, taskId);
      if (record === undefined || record.version !== expectedVersion) return false;
      // Replaced in place (not `set`, which would refresh its place in the eviction order).
      tasks.replace(principal, taskId, { ...structuredClone(next), version: expectedVersion + 1 });
      return true;
    },
    size: () => tasks.size,
  };
}
