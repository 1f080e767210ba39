// tasks/cancel across instances sharing a task store (issue 48): the cancel reaches instance B while instance A runs
// the task's work. B records the request in the store and publishes the task id; A, subscribed while it runs tasks,
// re-reads the task and aborts. A bus of this test stands for the shared channel (LISTEN/NOTIFY in production).
import { describe, expect, it } from "vitest";
import { approve } from "../approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { createInMemoryTaskStore } from "../../src/tasks/task-store.js";
import { createTasksApp, pollUntil, raw, serveTasks } from "./tasks-app.js";

closeEverythingAfterEachTest();

/** Every instance's publish reaches every instance's subscribers, as a NOTIFY channel would. */
function sharedBus() {
  const listeners = new Set<(taskId: string) => void>();
  const published: string[] = [];
  return {
    published,
    subscribers: () => listeners.size,
    bus: {
      publish: (taskId: string) => {
        published.push(taskId);
        for (const listener of [...listeners]) listener(taskId);
      },
      subscribe: (listener: (taskId: string) => void) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
  };
}

/** A reports.build task resumed (and so run) by instance `runner`, its handler started. */
async function runningOn(app: ReturnType<typeof createTasksApp>, runner: URL): Promise<string> {
  const taskId = (await raw(runner, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 2 } })).result!.taskId as string;
  const [pending] = await app.runtime.approvals.list!({ status: "pending" });
  await approve(app, pending!.id);
  expect((await raw(runner, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
  await app.started;
  return taskId;
}

describe("tasks/cancel across instances", () => {
  it("a cancel reaching the instance that does not run the task aborts the work on the one that does", async () => {
    const app = createTasksApp();
    const store = createInMemoryTaskStore();
    const shared = sharedBus();
    const a = await serveTasks(app, { tasks: { store, pollIntervalMs: 5, cancellations: shared.bus } });
    const b = await serveTasks(app, { tasks: { store, pollIntervalMs: 5, cancellations: shared.bus } });
    const taskId = await runningOn(app, a.url);
    expect(shared.subscribers()).toBe(1);

    expect((await raw(b.url, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    const final = (await pollUntil(b.url, "tok-dana", taskId)).result!;
    expect(final).toMatchObject({ status: "cancelled", statusMessage: expect.stringMatching(/^Cancelled while running/) });
    expect(app.builds).toEqual(["started", "aborted"]);
    expect(shared.published).toEqual([taskId]);
    // Nothing runs here any more, so nothing stays subscribed.
    expect(shared.subscribers()).toBe(0);
  });

  it("without cancellations the same cancel cannot reach the work: the task runs to completion (why the option exists)", async () => {
    const app = createTasksApp();
    const store = createInMemoryTaskStore();
    const a = await serveTasks(app, { tasks: { store, pollIntervalMs: 5 } });
    const b = await serveTasks(app, { tasks: { store, pollIntervalMs: 5 } });
    const taskId = await runningOn(app, a.url);
    expect((await raw(b.url, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    app.release();
    expect((await pollUntil(a.url, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.builds).toEqual(["started", "finished"]);
  });

  it("a published task id whose task no cancel was asked for aborts nothing; another principal's cancel is refused before anything is published", async () => {
    const app = createTasksApp();
    const store = createInMemoryTaskStore();
    const shared = sharedBus();
    const a = await serveTasks(app, { tasks: { store, pollIntervalMs: 5, cancellations: shared.bus } });
    const b = await serveTasks(app, { tasks: { store, pollIntervalMs: 5, cancellations: shared.bus } });
    const taskId = await runningOn(app, a.url);

    shared.bus.publish(taskId);
    const refused = await raw(b.url, "tok-priya", "tasks/cancel", { taskId });
    expect(refused.error).toBeDefined();
    expect(shared.published).toEqual([taskId]);
    // The running instance re-read the task after the forged id and found no cancel asked: the work goes on.
    expect((await raw(a.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    app.release();
    expect((await pollUntil(a.url, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.builds).toEqual(["started", "finished"]);
  });
});
