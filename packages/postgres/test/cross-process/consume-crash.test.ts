import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@orpc-agent/core";
import { findConsumedNeverStarted } from "../../src/index.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";
import { migrate } from "./app.js";
import { openConsumeApp } from "./consume-app.js";
import { startWorker, type Worker } from "./spawn.js";

// Issue 34 item 1: a process killed with SIGKILL after it consumed an approval and before its strict
// `capability.started` row exists. The approval names the consuming execution, an operator can list it, and
// the audited way out is a fresh approval for the same input that an approver decides again.
const dana: Actor = { id: "u_dana", kind: "user" };
const priya: Actor = { id: "u_priya", kind: "user" };
const ops: Actor = { id: "ops_sam", kind: "user" };

describe(`T8: consumed, never started, on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  let app: ReturnType<typeof openConsumeApp>;
  const workers: Worker[] = [];

  beforeAll(async () => {
    pool = createTestPool({ max: 4 });
    schema = await createTestSchema(pool, "consume_crash");
    await migrate(pool, schema);
    app = openConsumeApp({ schema, pool });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill("SIGKILL");
    if (pool === undefined) return;
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  const rowsOf = async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows;
  const startedRows = (executionId: string) =>
    rowsOf(`select 1 from ${app.tables.audit} where type = 'capability.started' and execution_id = $1`, [executionId]);
  const effects = (orderId: string) => rowsOf(`select execution_id from ${app.tables.effects} where order_id = $1`, [orderId]);

  it("kill -9 between consumption and the started write: the record names the execution, the operator lists and re-requests it, the fresh approval runs once", async () => {
    const { runtime } = app;
    const requested = await runtime.invoke("orders.refund", { orderId: "ord-kill", cents: 700 }, { actor: dana, context: {} });
    if (requested.status !== "approval-required") throw new Error(`expected approval-required, got ${requested.status}`);
    const approvalId = requested.approval.id;
    await runtime.approvals.decide(approvalId, { status: "approved", approver: priya });

    const child = startWorker("./consume-crash.ts", { env: { ORPC_TEST_SCHEMA: schema }, args: [approvalId] });
    workers.push(child);
    const [, announced, executionId] = await child.waitFor(/^STARTING (\S+) (\S+)$/);
    expect(announced).toBe(approvalId);
    expect(await child.kill("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });

    // The durable trace: the consume and the consuming execution id were one statement.
    expect(await runtime.approvals.get(approvalId)).toMatchObject({ status: "consumed", consumedByExecutionId: executionId });
    expect(await startedRows(executionId!)).toHaveLength(0);
    expect(await effects("ord-kill")).toHaveLength(0);
    // The operator's view: consumed by an execution with no started row. Right after the kill it cannot be told
    // from a live execution, so it is left out until the capability's time bound has passed, or listed flagged.
    const list = (extra: { includePossiblyRunning?: boolean; now?: () => Date } = {}) =>
      findConsumedNeverStarted({ query: (sql, params) => pool.query(sql, params), approvalsTable: app.tables.approvals, auditTable: app.tables.audit, ...extra });
    expect(await list()).toEqual([]);
    const [flagged] = await list({ includePossiblyRunning: true });
    expect(flagged).toMatchObject({ id: approvalId, consumedByExecutionId: executionId, possiblyRunning: true });
    const later = new Date(flagged!.possiblyRunningUntil!.getTime());
    const orphans = await list({ now: () => later });
    expect(orphans.map((r) => [r.id, r.consumedByExecutionId, r.possiblyRunning])).toEqual([[approvalId, executionId, false]]);
    // A retry still refuses: the consumed record is never re-used.
    expect(await runtime.resume(approvalId, { context: {} })).toMatchObject({ status: "failed", error: { code: "APPROVAL_CONSUMED" } });

    const fresh = await runtime.approvals.reRequest(approvalId, { operator: ops, reason: `execution ${executionId} never started` });
    expect(fresh).toMatchObject({ id: `${approvalId}.r`, status: "pending", actor: dana, inputHash: requested.approval.inputHash, types: ["manager"] });
    const [event] = await rowsOf(`select actor_id, input_hash, data from ${app.tables.audit} where type = 'capability.approval_requested' and data ->> 'approvalId' = $1`, [fresh.id]);
    expect(event).toMatchObject({
      actor_id: "u_dana",
      input_hash: requested.approval.inputHash,
      data: { reRequest: { of: approvalId, consumedByExecutionId: executionId, operator: { id: "ops_sam", kind: "user" } } },
    });
    // Listed once: a second re-request is refused, and the listing no longer shows the record.
    await expect(runtime.approvals.reRequest(approvalId, { operator: ops, reason: "again" })).rejects.toThrow(/already exists/);
    expect(await list({ includePossiblyRunning: true, now: () => later })).toEqual([]);

    // Not a silent re-use: the fresh approval waits for an approver, then runs exactly once.
    expect(await runtime.resume(fresh.id, { context: {} })).toMatchObject({ status: "failed", error: { code: "APPROVAL_PENDING" } });
    await runtime.approvals.decide(fresh.id, { status: "approved", approver: priya });
    const done = await runtime.resume(fresh.id, { context: {} });
    expect(done).toMatchObject({ status: "completed", output: { refunded: 700 } });
    expect(await effects("ord-kill")).toEqual([{ execution_id: done.executionId }]);
    expect(await startedRows(done.executionId)).toHaveLength(1);
  });

  it("reRequest refuses an approval that is not consumed", async () => {
    const { runtime } = app;
    const requested = await runtime.invoke("orders.refund", { orderId: "ord-pending", cents: 1 }, { actor: dana, context: {} });
    if (requested.status !== "approval-required") throw new Error(`expected approval-required, got ${requested.status}`);
    await expect(runtime.approvals.reRequest(requested.approval.id, { operator: ops, reason: "x" })).rejects.toThrow(/status: pending/);
    await expect(runtime.approvals.reRequest(requested.approval.id, { operator: { id: "", kind: "user" }, reason: "x" })).rejects.toThrow(TypeError);
  });
});
