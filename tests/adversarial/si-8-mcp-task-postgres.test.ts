// SI-8 attacks on MCP Tasks kept by the PostgreSQL task store (issue 47): another principal's task id answers exactly
// like an unknown one on every task method, and a task row edited in SQL to sit under another principal's key (or
// copied there) leaks nothing: the store reads a row only when its key and its record agree. Raw 2026-07-28 requests
// over loopback HTTP, the store on the real server.
import { createPgMCPTaskStore, INVOCATIONS_DDL } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { createTasksApp, pollUntil, raw, serveTasks, startTask } from "../../packages/mcp/test/tasks/tasks-app.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";

closeEverythingAfterEachTest();

const TABLE = "orpc_agent_mcp_tasks";

// A schema of this file's own; the DDL constants' default table names land in it (the pool's search_path).
const db = usePgSchema("adv_si8_mcp_tasks", [INVOCATIONS_DDL], { max: 6 });
const { query } = db;

async function serve() {
  const app = createTasksApp();
  const { url } = await serveTasks(app, { tasks: { store: createPgMCPTaskStore({ query }), pollIntervalMs: 5 } });
  return { app, url };
}

/** The answer with the request-specific parts removed: what another principal could compare. */
const shapeOf = (answer: Awaited<ReturnType<typeof raw>>) => JSON.stringify(answer);

async function principalOf(taskId: string): Promise<string> {
  const { rows } = await db.pool().query(`select principal from ${TABLE} where task_id = $1`, [taskId]);
  expect(rows).toHaveLength(1);
  return rows[0].principal as string;
}

describe("SI-8: MCP tasks on the PostgreSQL store", () => {
  it("SI-8: another principal's task id answers exactly like an unknown one, on tasks/get, tasks/update and tasks/cancel", async () => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    const unknown = `task_${"A".repeat(43)}`;
    const methods: [string, Record<string, unknown>][] = [
      ["tasks/get", {}],
      ["tasks/update", { inputResponses: { approval: { action: "accept" } } }],
      ["tasks/cancel", {}],
    ];
    for (const [method, extra] of methods) {
      const theirs = await raw(url, "tok-priya", method, { taskId, ...extra });
      const none = await raw(url, "tok-priya", method, { taskId: unknown, ...extra });
      expect(theirs.error).toBeDefined();
      expect(shapeOf(theirs)).toBe(shapeOf(none));
    }
    // Nothing priya sent moved dana's task: still awaiting its input, and it completes for dana once approved.
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
    await approve(app, approvalId);
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed" });
    expect(app.executions).toHaveLength(1);
    expect((await raw(url, "tok-priya", "tasks/get", { taskId })).error).toBeDefined();
  });

  it("SI-8: a task row moved in SQL under another principal's key answers that principal like an unknown task", async () => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    const { taskId: priyasOwn } = await startTask(url, "tok-priya");
    const priya = await principalOf(priyasOwn);
    expect(priya).not.toBe(await principalOf(taskId));
    await db.pool().query(`update ${TABLE} set principal = $1 where task_id = $2`, [priya, taskId]);
    await approve(app, approvalId);
    const edited = await raw(url, "tok-priya", "tasks/get", { taskId });
    expect(edited.error).toBeDefined();
    expect(shapeOf(edited)).toBe(shapeOf(await raw(url, "tok-priya", "tasks/get", { taskId: `task_${"B".repeat(43)}` })));
    expect((await raw(url, "tok-priya", "tasks/cancel", { taskId })).error).toBeDefined();
    // Nothing ran for the moved row, whoever polled.
    expect(app.executions).toEqual([]);
    // priya's own task is untouched and still hers.
    expect((await raw(url, "tok-priya", "tasks/get", { taskId: priyasOwn })).result).toMatchObject({ status: "input_required" });
  });

  it("SI-8: a task row copied in SQL under another principal's key leaks neither its status nor its result", async () => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    await approve(app, approvalId);
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok" } } });
    const { taskId: priyasOwn } = await startTask(url, "tok-priya");
    const priya = await principalOf(priyasOwn);
    await db.pool().query(`insert into ${TABLE} (principal, task_id, record, version, expires_at) select $1, task_id, record, version, expires_at from ${TABLE} where task_id = $2`, [priya, taskId]);
    const copied = await raw(url, "tok-priya", "tasks/get", { taskId });
    expect(copied.error).toBeDefined();
    expect(JSON.stringify(copied)).not.toContain("refunded");
    // The store itself answers nothing for the copy, and refuses to write it.
    const store = createPgMCPTaskStore({ query });
    expect(await store.get(priya, taskId, Date.now())).toBeUndefined();
    const original = (await store.get(await principalOf(priyasOwn), priyasOwn, Date.now()))!;
    expect(await store.update(priya, taskId, 0, { ...original, taskId })).toBe(false);
    // dana still reads her result.
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
  });
});
