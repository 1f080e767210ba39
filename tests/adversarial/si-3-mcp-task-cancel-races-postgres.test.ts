// SI-3 / SI-12 review of MCP tasks across two instances on one PostgreSQL schema (issue 48): the shared task store and
// the cancellation channel on a real server. Another principal's cancel, on either instance, records nothing and
// answers like an unknown task; a NOTIFY replayed with a finished task's id aborts nothing; a cancel racing the
// work's completion ends the task once, and both instances read the same outcome; pollers on both instances resume
// a decided task once.
import { INVOCATIONS_DDL } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { principalKey } from "../../packages/mcp/src/catalog/principal-key.js";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { createTasksApp, pollUntil, raw, serveTasks, startTask } from "../../packages/mcp/test/tasks/tasks-app.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";
import { pgTasksInstance } from "./support/pg-task-instance.js";

closeEverythingAfterEachTest();

const db = usePgSchema("adv_si3_task_races", [INVOCATIONS_DDL], { max: 8 });
const CHANNEL = `orpc_adv_si3_task_races_${process.pid}`;
const TASKS = "orpc_agent_mcp_tasks";

const tasksOption = () => pgTasksInstance(db.query, CHANNEL);

async function twoInstances() {
  const app = createTasksApp();
  const a = tasksOption();
  const b = tasksOption();
  const first = await serveTasks(app, { tasks: a.option });
  const second = await serveTasks(app, { tasks: b.option });
  return { app, a: first.url, b: second.url, heardOnA: a.heard, listeningOnA: a.listening };
}

/** A reports.build task of dana's, approved and resumed (so run) by instance A, which is listening for cancels. */
async function runningOnA() {
  const instances = await twoInstances();
  const { app, a, listeningOnA } = instances;
  const taskId = (await raw(a, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 2 } })).result!.taskId as string;
  const pending = (await app.runtime.approvals.list!({ status: "pending" })).find((record) => record.capabilityId === "reports.build");
  await approve(app, pending!.id);
  expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
  await app.started;
  await listeningOnA();
  return { ...instances, taskId };
}

const rowOf = async (taskId: string) =>
  (await db.pool().query(`select principal, version::text as version, record::text as record from ${TASKS} where task_id = $1 order by principal`, [taskId])).rows;
const UNKNOWN_TASK = "00000000-0000-4000-8000-000000000000";

describe("SI-3: tasks/cancel across instances: scoped to the task's principal", () => {
  it("SI-3: priya's tasks/cancel for dana's running task, on either instance, records nothing and answers like an unknown task", async () => {
    const { app, a, b, taskId } = await runningOnA();
    // The run's progress write lands on its own schedule: take the row once it has.
    let before = await rowOf(taskId);
    while (!String(JSON.parse(before[0]!.record).statusMessage).startsWith("Running:")) before = await rowOf(taskId);
    for (const url of [b, a]) {
      const refused = await raw(url, "tok-priya", "tasks/cancel", { taskId });
      const unknown = await raw(url, "tok-priya", "tasks/cancel", { taskId: UNKNOWN_TASK });
      expect(refused.error).toBeDefined();
      expect(refused).toEqual(unknown);
    }
    // No cancelRequested, no version bump: the store is exactly as before.
    expect(await rowOf(taskId)).toEqual(before);
    expect(JSON.parse(before[0]!.record).cancelRequested).toBeUndefined();
    app.release();
    expect((await pollUntil(b, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.builds).toEqual(["started", "finished"]);
  });

  it("SI-3: a copy of dana's running task forged in SQL under priya's key (record rewritten to match): priya's cancel on the running instance aborts nothing of dana's", async () => {
    const { app, a, taskId } = await runningOnA();
    const copied = await db.pool().query(
      `insert into ${TASKS} (principal, task_id, record, version, expires_at)
       select $1, task_id, jsonb_set(record, '{principal}', to_jsonb($1::text)), version, expires_at from ${TASKS} where task_id = $2`,
      [principalKey({ id: "u_priya", kind: "user", via: { id: "agent-1" } }), taskId],
    );
    expect(copied.rowCount).toBe(1);
    // The forged copy is found under her key (the row is a DB writer's, so it reads as hers)...
    expect((await raw(a, "tok-priya", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await raw(a, "tok-priya", "tasks/cancel", { taskId });
    expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    app.release();
    expect((await pollUntil(a, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.builds).toEqual(["started", "finished"]);
  });

  it("SI-3: NOTIFYs replaying a finished task's id, and another principal's task id, abort nothing and change no row", async () => {
    const { app, a, b, heardOnA, listeningOnA } = await twoInstances();
    // A refund task of priya's, cancelled by her on B before it ran; then a refund task of dana's, completed.
    const priyas = await startTask(a, "tok-priya");
    expect((await raw(b, "tok-priya", "tasks/cancel", { taskId: priyas.taskId })).error).toBeUndefined();
    const danas = await startTask(b, "tok-dana");
    await approve(app, danas.approvalId);
    expect((await pollUntil(a, "tok-dana", danas.taskId)).result).toMatchObject({ status: "completed" });
    // Now dana's report runs on A.
    const taskId = (await raw(a, "tok-dana", "tools/call", { name: "reports_build", arguments: { pages: 1 } })).result!.taskId as string;
    const pending = (await app.runtime.approvals.list!({ status: "pending" })).find((record) => record.capabilityId === "reports.build");
    await approve(app, pending!.id);
    expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await app.started;
    await listeningOnA();
    const rows = { priya: await rowOf(priyas.taskId), dana: await rowOf(danas.taskId), running: await rowOf(taskId) };
    for (const replayed of [priyas.taskId, danas.taskId, UNKNOWN_TASK]) await db.pool().query("select pg_notify($1, $2)", [CHANNEL, replayed]);
    // The running task's own id last: once A heard it, it has heard the others (one connection, in order).
    await db.pool().query("select pg_notify($1, $2)", [CHANNEL, taskId]);
    await heardOnA(taskId);
    expect(await rowOf(priyas.taskId)).toEqual(rows.priya);
    expect(await rowOf(danas.taskId)).toEqual(rows.dana);
    expect((await raw(b, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    app.release();
    expect((await pollUntil(b, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.builds).toEqual(["started", "finished"]);
    expect(rows.running).toHaveLength(1);
    expect(app.executions).toHaveLength(1);
  });
});

describe("SI-12: races across instances end a task once", () => {
  it("SI-12: the owner's cancel on B racing the work's completion on A: one outcome, the same on both instances, written once", async () => {
    for (let round = 0; round < 3; round++) {
      const { app, a, b, taskId } = await runningOnA();
      await Promise.all([raw(b, "tok-dana", "tasks/cancel", { taskId }), Promise.resolve().then(() => app.release())]);
      const onA = (await pollUntil(a, "tok-dana", taskId)).result!;
      const onB = (await raw(b, "tok-dana", "tasks/get", { taskId })).result!;
      expect(["completed", "cancelled"]).toContain(onA.status);
      expect(onB).toEqual(onA);
      // The handler ran once and ended once; the final row is not written again afterwards.
      expect(app.builds.filter((step) => step === "started")).toHaveLength(1);
      expect(app.builds).toHaveLength(2);
      await (await import("node:timers/promises")).setImmediate();
      const [row] = await rowOf(taskId);
      expect(JSON.parse(row!.record).phase).toBe("done");
      expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toEqual(onA);
    }
  });

  it("SI-12: a decided task's first poll on A racing the owner's cancel on B, 6 times: either cancelled with nothing run, or run once; both instances agree", async () => {
    const { app, a, b } = await twoInstances();
    for (let round = 0; round < 6; round++) {
      const { taskId, approvalId } = await startTask(round % 2 === 0 ? a : b, "tok-dana");
      await approve(app, approvalId);
      const ranBefore = app.executions.length;
      const [poll, cancel] = await Promise.all([raw(a, "tok-dana", "tasks/get", { taskId }), raw(b, "tok-dana", "tasks/cancel", { taskId })]);
      expect(poll.error).toBeUndefined();
      expect(cancel.error).toBeUndefined();
      const final = (await pollUntil(a, "tok-dana", taskId)).result!;
      expect((await raw(b, "tok-dana", "tasks/get", { taskId })).result).toEqual(final);
      const ran = app.executions.length - ranBefore;
      if (final.status === "cancelled" && String(final.statusMessage).startsWith("Cancelled before")) expect(ran).toBe(0);
      else expect(ran).toBeLessThanOrEqual(1);
      if (final.status === "completed") expect(ran).toBe(1);
    }
  });

  it("SI-12: 16 concurrent polls of a decided task spread over both instances resume it once: one execution, one result", async () => {
    const { app, a, b } = await twoInstances();
    const { taskId, approvalId } = await startTask(a, "tok-dana");
    await approve(app, approvalId);
    const polls = await Promise.all(Array.from({ length: 16 }, (_, i) => raw(i % 2 === 0 ? a : b, "tok-dana", "tasks/get", { taskId })));
    expect(polls.every((poll) => poll.error === undefined)).toBe(true);
    const final = (await pollUntil(b, "tok-dana", taskId)).result!;
    expect(final).toMatchObject({ status: "completed" });
    expect((await raw(a, "tok-dana", "tasks/get", { taskId })).result).toEqual(final);
    expect(app.executions).toEqual([{ orderId: "o1", amount: 5 }]);
  });
});
