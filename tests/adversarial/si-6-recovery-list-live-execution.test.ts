// SI-6 on the real server: the recovery list (`findConsumedNeverStarted`) must never offer an execution that may
// still be running. An operator who re-requests a live execution's approval gets a second approval for the same
// input, and a second effect once it is approved. The live executions here are real: the audit table is locked by
// another transaction (a slow audit database), so the `capability.started` INSERT waits, while the handler is
// blocked on a promise after the approval was consumed (best-effort audit) or waits for that write (strict audit).
import { AUDIT_DDL, createPgApprovalCoordinator, createPgAuditSink, findConsumedNeverStarted, type PgAuditSink } from "@orpc-agent/postgres";
import type { AgentAuditEvent } from "@orpc-agent/core";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, meta, mo } from "./support/runtime.js";
import { useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_recovery_live");
beforeAll(async () => {
  await db.pool().query(AUDIT_DDL);
});

const sinks: PgAuditSink[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
  for (const sink of sinks.splice(0)) await sink.close();
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A refund whose handler reports that it runs, then waits for the test to let it finish. */
function blockedRefund(timeoutMs: number) {
  const entered = deferred();
  const release = deferred();
  const effects: number[] = [];
  const procedure = base
    .meta({ agent: meta({ approval: { required: true }, timeoutMs }) })
    .input(z.object({ cents: z.number() }))
    .handler(async ({ input }) => {
      entered.resolve();
      await release.promise;
      effects.push(input.cents);
      return "refunded";
    });
  return { procedure, entered, release, effects };
}

/** Another connection holds the audit table in EXCLUSIVE mode: INSERTs wait, SELECTs do not. `unlock` commits. */
async function lockAuditTable(): Promise<{ unlock(): Promise<void> }> {
  const { rows } = await db.pool().query<{ schema: string }>("select current_schema() as schema");
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, options: `-c search_path=${rows[0]!.schema}` });
  client.on("error", () => {});
  clients.push(client);
  await client.connect();
  await client.query("begin");
  await client.query("lock table orpc_agent_audit_events in exclusive mode");
  return { unlock: async () => void (await client.query("commit")) };
}

/** Until the started INSERT is queued behind the lock (it is sent asynchronously, after the handler began). */
async function insertWaitingOnLock(): Promise<void> {
  for (;;) {
    const { rows } = await db.pool().query(
      "select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into orpc_agent_audit_events%'",
    );
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const listing = (extra: Partial<Parameters<typeof findConsumedNeverStarted>[0]> = {}) =>
  findConsumedNeverStarted({ query: db.query, ...extra });

const startedRows = async (executionId: string) =>
  (await db.pool().query(`select 1 from orpc_agent_audit_events where type = 'capability.started' and execution_id = $1`, [executionId])).rows;

describe("the recovery list and live executions (SI-6)", () => {
  it("SI-6: an execution blocked in its handler after consuming its approval is not listed as recoverable", async () => {
    const refund = blockedRefund(60_000);
    const coordinator = createPgApprovalCoordinator({ query: db.query });
    const sink = createPgAuditSink({ query: db.query });
    sinks.push(sink);
    const { runtime } = build({ defs: { refund: refund.procedure }, approvals: { coordinator, seal: false }, audit: sink });
    const approval = approvalOf(await runtime.invoke("refund", { cents: 700 }, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    await runtime.drainAudit();

    const lock = await lockAuditTable();
    const running = runtime.resume(approval.id, { context: {} });
    await refund.entered.promise;
    await insertWaitingOnLock();
    const consumed = await coordinator.get(approval.id);
    expect(consumed).toMatchObject({ status: "consumed" });
    const executionId = consumed!.consumedByExecutionId!;
    expect(await startedRows(executionId)).toHaveLength(0);

    // What the guide tells the operator to run: the live execution is not there.
    expect((await listing()).map((r) => r.id)).not.toContain(approval.id);
    // Asked for everything, it is there, flagged.
    const flagged = (await listing({ includePossiblyRunning: true })).find((r) => r.id === approval.id);
    expect(flagged).toMatchObject({ consumedByExecutionId: executionId, possiblyRunning: true });
    const until = flagged!.possiblyRunningUntil!.getTime();
    const consumedAt = flagged!.consumedAt!.getTime();
    // The bound covers the capability's own timeout and then some: past the timeout alone it is still left out.
    expect(until - consumedAt).toBeGreaterThan(60_000);
    expect((await listing({ now: () => new Date(consumedAt + 60_001) })).map((r) => r.id)).not.toContain(approval.id);
    // Once the bound has passed, nothing can still be running under this runtime: it is listed, unflagged.
    const late = (await listing({ now: () => new Date(until + 1) })).find((r) => r.id === approval.id);
    expect(late).toMatchObject({ possiblyRunning: false });

    await lock.unlock();
    refund.release.resolve();
    expect(await running).toMatchObject({ status: "completed" });
    await runtime.drainAudit();
    expect(await startedRows(executionId)).toHaveLength(1);
    expect((await listing({ includePossiblyRunning: true, now: () => new Date(until + 1) })).map((r) => r.id)).not.toContain(approval.id);
    expect(refund.effects).toEqual([700]);
  });

  it("SI-6: under strict audit, an execution waiting for its started write is not listed, and runs once the write lands", async () => {
    const refund = blockedRefund(60_000);
    refund.release.resolve();
    const coordinator = createPgApprovalCoordinator({ query: db.query });
    const sink = createPgAuditSink({ query: db.query });
    sinks.push(sink);
    const { runtime } = build({ defs: { refund: refund.procedure }, approvals: { coordinator, seal: false }, audit: { sinks: [sink], strict: true } });
    const approval = approvalOf(await runtime.invoke("refund", { cents: 800 }, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    await runtime.drainAudit();

    const lock = await lockAuditTable();
    const running = runtime.resume(approval.id, { context: {} });
    await insertWaitingOnLock();
    expect(await coordinator.get(approval.id)).toMatchObject({ status: "consumed" });
    expect(refund.effects).toEqual([]);
    expect((await listing()).map((r) => r.id)).not.toContain(approval.id);
    expect((await listing({ includePossiblyRunning: true })).find((r) => r.id === approval.id)).toMatchObject({ possiblyRunning: true });

    // Had the operator re-requested it now, this effect would be the first of two.
    await lock.unlock();
    expect(await running).toMatchObject({ status: "completed" });
    expect(refund.effects).toEqual([800]);
  });

  it("SI-6: a run whose started row was lost but whose terminal event shows the procedure ran is never listed", async () => {
    const refund = blockedRefund(1_000);
    refund.release.resolve();
    const coordinator = createPgApprovalCoordinator({ query: db.query });
    const pgSink = createPgAuditSink({ query: db.query });
    sinks.push(pgSink);
    // Best-effort audit drops a failed write: here the started write fails, the rest are stored.
    const lossy = (event: AgentAuditEvent) => (event.type === "capability.started" ? Promise.reject(new Error("audit database unavailable")) : pgSink(event));
    const { runtime } = build({ defs: { refund: refund.procedure }, approvals: { coordinator, seal: false }, audit: { sinks: [lossy], onSinkError: () => {} } });
    const approval = approvalOf(await runtime.invoke("refund", { cents: 900 }, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    expect(await runtime.resume(approval.id, { context: {} })).toMatchObject({ status: "completed" });
    await runtime.drainAudit().catch(() => {});
    const executionId = (await coordinator.get(approval.id))!.consumedByExecutionId!;
    expect(await startedRows(executionId)).toHaveLength(0);
    expect(refund.effects).toEqual([900]);

    const farFuture = () => new Date(Date.now() + 365 * 24 * 3_600_000);
    expect((await listing({ includePossiblyRunning: true, now: farFuture })).map((r) => r.id)).not.toContain(approval.id);
  });
});
