import { ConfigurationError } from "@orpc-agent/core/adapter";
import { createInMemoryTaskStore, type MCPTaskStore } from "./task-store.js";
import type { TaskCancellations, TaskRuntime } from "./task-runtime.js";

/**
 * `tasks` on the v2 endpoint: the MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28
 * clients that declare it. `true` takes every default.
 */
export type MCPTasksOption =
  | true
  | {
      /** Where tasks live; default: in this process's memory, bounded (tasks then do not survive a restart). */
      store?: MCPTaskStore;
      /** The `pollIntervalMs` tasks suggest to clients. @default 2000 */
      pollIntervalMs?: number;
      /** How long a task stays readable after its approval's own expiry. @default 3_600_000 (one hour) */
      retentionMs?: number;
      /**
       * How long the instance running a task holds it without renewing (it renews every third of this). A task whose
       * instance died reads `failed`, outcome unknown, once this lapses; it is never run again. @default 30_000
       */
      runLeaseMs?: number;
      /**
       * With several instances on one `store`: how a `tasks/cancel` that reaches an instance not running the task
       * tells the others. `publish(taskId)` after the cancel is recorded in the store; `subscribe` is held while this
       * instance runs tasks. A task id heard only makes the running instance re-read the task: it aborts only when the
       * store says a cancel was asked. `createPgTaskCancellations` of `@orpc-agent/postgres` is one over LISTEN/NOTIFY.
       */
      cancellations?: {
        publish(taskId: string): Promise<void> | void;
        subscribe(listener: (taskId: string) => void): (() => void) | void;
      };
    };

/** Validates `tasks`; `undefined` when the extension is off. */
export function prepareTasks(option: unknown, adapter: string, capabilities: readonly { id: string; meta: { sideEffect?: string; adapters?: Record<string, unknown> } }[]): TaskRuntime | undefined {
  if (option === undefined || option === false) return undefined;
  const always = new Set<string>();
  const readOnly = new Set<string>();
  for (const capability of capabilities) {
    if (capability.meta.sideEffect === "none" || capability.meta.sideEffect === "read") readOnly.add(capability.id);
    const task = (capability.meta.adapters?.mcp as { task?: unknown } | undefined)?.task;
    if (task === undefined || task === "on-approval") continue;
    if (task !== "always") throw new ConfigurationError(`${adapter}: meta.adapters.mcp.task of "${capability.id}" must be "always" or "on-approval".`);
    always.add(capability.id);
  }
  const config = option === true ? {} : option;
  if (typeof config !== "object" || config === null) throw new ConfigurationError(`${adapter}: options.tasks must be true or { store?, pollIntervalMs?, retentionMs?, runLeaseMs?, cancellations? }.`);
  const { store, pollIntervalMs = 2_000, retentionMs = 3_600_000, runLeaseMs = 30_000, cancellations } = config as { store?: MCPTaskStore; pollIntervalMs?: unknown; retentionMs?: unknown; runLeaseMs?: unknown; cancellations?: TaskCancellations };
  for (const [name, value] of [["pollIntervalMs", pollIntervalMs], ["retentionMs", retentionMs]] as const) {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new ConfigurationError(`${adapter}: options.tasks.${name} must be a non-negative integer.`);
  }
  // A lease shorter than a renewal round trip would end healthy tasks.
  if (typeof runLeaseMs !== "number" || !Number.isSafeInteger(runLeaseMs) || runLeaseMs < 1_000) throw new ConfigurationError(`${adapter}: options.tasks.runLeaseMs must be an integer of at least 1000.`);
  if (store !== undefined && (typeof store !== "object" || store === null || typeof store.get !== "function" || typeof store.create !== "function" || typeof store.update !== "function")) {
    throw new ConfigurationError(`${adapter}: options.tasks.store must implement create, get and update (MCPTaskStore).`);
  }
  if (cancellations !== undefined && (typeof cancellations !== "object" || cancellations === null || typeof cancellations.publish !== "function" || typeof cancellations.subscribe !== "function")) {
    throw new ConfigurationError(`${adapter}: options.tasks.cancellations must be { publish(taskId), subscribe(listener) }.`);
  }
  const inFlight = new Set<Promise<void>>();
  return {
    store: store ?? createInMemoryTaskStore(),
    cancellations,
    pollIntervalMs: pollIntervalMs as number,
    retentionMs: retentionMs as number,
    runLeaseMs,
    readOnly,
    running: new Map(),
    always,
    track: (work) => {
      const settled = work.catch(() => undefined).finally(() => inFlight.delete(settled));
      inFlight.add(settled);
    },
    settled: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
