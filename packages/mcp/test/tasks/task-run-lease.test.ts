// A task whose running instance died (issue 48): its record stays `running` with a lease nobody renews. Two handlers
// share one store, as two instances share PostgreSQL; the record is written through the store API as a killed
// instance leaves it. Any task read then ends it `failed`, outcome unknown, exactly once, and nothing runs again.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { createInMemoryTaskStore, type MCPTaskRecord, type MCPTaskStore } from "../../src/tasks/task-store.js";
import { createTasksApp, raw, serveTasks, startTask } from "./tasks-app.js";

closeEverythingAfterEachTest();

/** The in-memory store, counting the writes that end a task `failed` and remembering the records created. */
function watchedStore() {
  const inner = createInMemoryTaskStore();
  const created: MCPTaskRecord[] = [];
  let failedWrites = 0;
  const store: MCPTaskStore = {
    create: async (record) => {
      created.push(structuredClone(record));
      await inner.create(record);
    },
    get: (principal, taskId, now) => inner.get(principal, taskId, now),
    update: async (principal, taskId, expectedVersion, next) => {
      const written = await inner.update(principal, taskId, expectedVersion, next);
      if (written && next.status === "failed") failedWrites += 1;
      return written;
    },
  };
  return { store, created, failedWrites: () => failedWrites };
}

/** Rewrites the task as an instance killed while running it leaves it: `running`, its lease lapsed a while ago. */
async function leftByDeadInstance(store: MCPTaskStore, record: MCPTaskRecord, overrides: Partial<MCPTaskRecord> = {}): Promise<void> {
  const current = (await store.get(record.principal, record.taskId, Date.now()))!;
  const { inputRequests: _gone, ...rest } = current;
  const dead: MCPTaskRecord = { ...rest, phase: "running", status: "working", statusMessage: "Approval decided: running.", runLeaseExpiresAt: Date.now() - 1_000, ...overrides };
  expect(await store.update(current.principal, current.taskId, current.version, dead)).toBe(true);
}

async function twoInstances() {
  const app = createTasksApp();
  const watched = watchedStore();
  const tasks = { store: watched.store, pollIntervalMs: 5 };
  const a = await serveTasks(app, { tasks });
  const b = await serveTasks(app, { tasks });
  return { app, watched, a, b };
}

describe("a task whose running instance died: its lease lapses", () => {
  it("tasks/get on either instance ends it failed, effect unknown, exactly once; the handler never runs again", async () => {
    const { app, watched, a, b } = await twoInstances();
    const { taskId } = await startTask(a.url);
    await leftByDeadInstance(watched.store, watched.created[0]!);

    const [onA, onB] = await Promise.all([raw(a.url, "tok-dana", "tasks/get", { taskId }), raw(b.url, "tok-dana", "tasks/get", { taskId })]);
    expect(onA.result).toMatchObject({
      status: "failed",
      statusMessage: expect.stringMatching(/lease-lapsed\): its effect is unknown/),
      error: { code: -32603, data: { status: "outcome-unknown", reason: "lease-lapsed", effectStatus: "unknown" } },
    });
    expect(onA.result).not.toHaveProperty("result");
    // Both pollers answer the one outcome written, and later reads change nothing.
    expect(onB.result).toEqual(onA.result);
    expect((await raw(b.url, "tok-dana", "tasks/get", { taskId })).result).toEqual(onA.result);
    expect(watched.failedWrites()).toBe(1);
    // A cancel now finds an ended task: nothing to stop, nothing runs.
    expect((await raw(a.url, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    expect((await raw(a.url, "tok-dana", "tasks/get", { taskId })).result).toEqual(onA.result);
    expect(app.executions).toEqual([]);
  });

  it("a read-only capability's lapsed task says the outcome is unknown, with no effect status", async () => {
    const { watched, a, b } = await twoInstances();
    await startTask(a.url);
    const principal = watched.created[0]!.principal;
    const now = Date.now();
    const taskId = "task_readonly_left_running";
    await watched.store.create({
      taskId,
      principal,
      capabilityId: "exports.slow",
      phase: "running",
      status: "working",
      statusMessage: "Running.",
      runLeaseExpiresAt: now - 1_000,
      createdAt: now - 60_000,
      lastUpdatedAt: now - 60_000,
      expiresAt: now + 60_000,
      version: 1,
    });
    const { result } = await raw(b.url, "tok-dana", "tasks/get", { taskId });
    expect(result).toMatchObject({ status: "failed", error: { data: { status: "outcome-unknown", reason: "lease-lapsed" } } });
    expect((result!.error as { data: Record<string, unknown> }).data).not.toHaveProperty("effectStatus");
    expect(watched.failedWrites()).toBe(1);
  });

  it("a lease still held is left alone: the task reads working", async () => {
    const { watched, a, b } = await twoInstances();
    const { taskId } = await startTask(a.url);
    await leftByDeadInstance(watched.store, watched.created[0]!, { runLeaseExpiresAt: Date.now() + 600_000 });
    expect((await raw(b.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    expect(watched.failedWrites()).toBe(0);
  });

  it("SI-8: another principal's read of the lapsed task answers like an unknown task and ends nothing", async () => {
    const { watched, a, b } = await twoInstances();
    const { taskId } = await startTask(a.url);
    await leftByDeadInstance(watched.store, watched.created[0]!);
    for (const method of ["tasks/get", "tasks/cancel"]) {
      expect(await raw(b.url, "tok-priya", method, { taskId })).toEqual(await raw(b.url, "tok-priya", method, { taskId: "task_unknown" }));
    }
    expect(watched.failedWrites()).toBe(0);
    expect((await raw(a.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "failed" });
  });
});
