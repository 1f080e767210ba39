// SI-3 on cross-instance task cancellation over PostgreSQL (issue 48): two instances share the MCP task store and the
// cancellation channel on a real server. A tasks/cancel by the task's owner on the instance that does not run it aborts
// the work where it runs. A NOTIFY forged with the task's id, by anyone able to reach the database, only makes the
// running instance re-read the task: no cancel is recorded, so nothing is aborted. Another principal's cancel is
// refused before anything is recorded or sent.
import { INVOCATIONS_DDL, createPgMCPTaskStore, createPgTaskCancellations, pgListenFromClient, type PgListen, type PgQuery } from "@orpc-agent/postgres";
import type { MCPTaskRecord } from "@orpc-agent/mcp";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { createTasksApp, pollUntil, raw, serveTasks } from "../../packages/mcp/test/tasks/tasks-app.js";

closeEverythingAfterEachTest();

const schema = `orpc_adv_si3_task_cancel_${process.pid}`;
const CHANNEL = `orpc_adv_si3_task_cancel_${process.pid}`;
let pool: pg.Pool;
let query: PgQuery;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 6, options: `-c search_path=${schema}` });
  pool.on("error", () => {});
  await pool.query(`drop schema if exists ${schema} cascade`);
  await pool.query(`create schema ${schema}`);
  await pool.query(INVOCATIONS_DDL);
  query = (sql, params) => pool.query(sql, params as unknown[]);
});
afterAll(async () => {
  await pool?.query(`drop schema if exists ${schema} cascade`);
  await pool?.end();
});

/** One instance's `tasks` option: the shared store, and cancellations over a LISTEN connection of its own. */
function tasksOption() {
  const connection = pgListenFromClient(() => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL }), { onError: () => undefined });
  closeAfterTest(() => connection.close());
  const listening: Promise<unknown>[] = [];
  const heard: string[] = [];
  const waiting: { id: string; resolve: () => void }[] = [];
  // Taps what the instance hears, after the instance itself has handled it.
  const listen: PgListen = (channel, onPayload, events) => {
    const started = connection(
      channel,
      (payload) => {
        onPayload(payload);
        heard.push(payload);
        for (const w of waiting.filter((w) => w.id === payload)) w.resolve();
      },
      events,
    );
    listening.push(started);
    return started;
  };
  const cancellations = createPgTaskCancellations({ listen, query, channel: CHANNEL });
  return {
    option: { store: createPgMCPTaskStore<MCPTaskRecord>({ query }), pollIntervalMs: 5, cancellations },
    listening: () => Promise.all(listening),
    heard: (id: string) => (heard.includes(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ id, resolve }))),
  };
}

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
    await pool.query("select pg_notify($1, $2)", [CHANNEL, taskId]);
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
