// SI-3 on cross-instance task cancellation over PostgreSQL (issue 48): two instances share the MCP task store and the
// cancellation channel on a real server. A tasks/cancel by the task's owner on the instance that does not run it aborts
// the work where it runs. A NOTIFY forged with the task's id, by anyone able to reach the database, only makes the
// running instance re-read the task: no cancel is recorded, so nothing is aborted. Another principal's cancel is
// refused before anything is recorded or sent.
import { INVOCATIONS_DDL } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";
import { pgTasksInstance } from "./support/pg-task-instance.js";
import { createTasksApp, pollUntil, raw, serveTasks } from "../../packages/mcp/test/tasks/tasks-app.js";

closeEverythingAfterEachTest();

const db = usePgSchema("adv_si3_task_cancel", [INVOCATIONS_DDL], { max: 6 });
const CHANNEL = `orpc_adv_si3_task_cancel_${process.pid}`;

const tasksOption = () => pgTasksInstance(db.query, CHANNEL);

/** Two instances; a reports.build task resumed, and so run, by the first. */
async function runningOnA() {
  const app = createTasksApp();
  const a = tasksOption();
  const b = tasksOption();
  const first = await serveTasks(app, { tasks: a.option });
  const second = await serveTasks(app, { tasks: b.option });
  const taskId = (await raw(first.url, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 2 } })).result!.taskId as string;
  const [pending] = await app.runtime.approvals.list!({ status: "pending" });
  await approve(app, pending!.id);
  expect((await raw(first.url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
  await app.started;
  // A subscribes while it runs the task; its LISTEN is in effect once this resolves.
  await a.listening();
  return { app, a: first.url, b: second.url, taskId, heardOnA: a.heard };
}

describe("SI-3: tasks/cancel across instances on PostgreSQL", () => {
  it("SI-3: the owner's cancel on the instance not running the task aborts the work where it runs", async () => {
    const { app, a, b, taskId } = await runningOnA();
    expect((await raw(b, "tok-dana", "tasks/cancel", { taskId })).error).toBeUndefined();
    const final = (await pollUntil(b, "tok-dana", taskId)).result!;
    expect(final).toMatchObject({ status: "cancelled", statusMessage: expect.stringMatching(/^Cancelled while running/) });
    expect(app.builds).toEqual(["started", "aborted"]);
    expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
  });

  it("SI-3: a NOTIFY forged with the task id, and another principal's cancel, abort nothing: the task completes", async () => {
    const { app, a, b, taskId, heardOnA } = await runningOnA();
    await db.query("select pg_notify($1, $2)", [CHANNEL, taskId]);
    // A has heard the forged id and started re-reading the task: an abort on hearing alone would already be under way.
    await heardOnA(taskId);
    const refused = await raw(b, "tok-priya", "tasks/cancel", { taskId });
    expect(refused.error).toBeDefined();
    expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    app.release();
    expect((await pollUntil(a, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.builds).toEqual(["started", "finished"]);
  });
});
