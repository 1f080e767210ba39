// docs/architecture/spec/distributed.md#distributed-9-2 and docs/architecture/spec/distributed.md#distributed-10 WF2, WF3, WF4 with real processes: a worker runs the workflows, is killed with
// SIGKILL at printed markers, and a second worker (same DBOS executor) recovers them. The test process plays the
// application's server: it decides approvals, resolves unknown outcomes and wakes workflows, with its own DBOS
// executor that runs no workflow. Effects are rows written by the handlers, counted across processes.
import { randomUUID } from "node:crypto";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApp, migrate, NAMESPACE, type App } from "./crash/app.js";
import { startWorker, type Worker } from "./crash/spawn.js";
import { createTestDatabase, REAL_SERVER, type TestDatabase } from "./support/database.js";
import { launchDbos } from "./support/dbos.js";
import { idempotencyKeyOf, untilRecord, untilSuspended } from "./support/journal.js";

const u_priya = { id: "u_priya", kind: "user" as const };
const ops = { id: "ops_1", kind: "user" as const };
const run = randomUUID().slice(0, 8);
const wf = {
  afterStep1: `after-step-1-${run}`,
  typedUnknown: `typed-unknown-${run}`,
  resolvedUnknown: `resolved-unknown-${run}`,
  decidedWhileDown: `decided-while-down-${run}`,
  duplicateWake: `duplicate-wake-${run}`,
};

let db: TestDatabase;
let app: App;
const workers: Worker[] = [];
let recovered: Worker;
/** Effects per order at the moment generation 1 was killed. */
let atKill: Record<string, number> = {};

const effects = async (orderId: string) =>
  (await db.pool.query("select capability_id, idempotency_key, correlation_id, actor_id, attributes, approver_id, generation from effects where order_id = $1 order by id", [orderId])).rows;
const resultOf = async (workflowId: string) => JSON.parse((await recovered.waitFor(new RegExp(`^RESULT ${workflowId} (.*)$`)))[1]!);
const messagesTo = async (workflowId: string) =>
  (await db.pool.query("select topic, consumed from dbos.notifications where destination_uuid = $1", [workflowId])).rows;

describe(`crash recovery with real worker processes on a ${REAL_SERVER}`, () => {
  beforeAll(async () => {
    db = await createTestDatabase("crash");
    await migrate(db.pool);
    app = openApp({ url: db.url, generation: 0 });
    await launchDbos(db.url, { executorID: "dbos-crash-test-app" }); // sends wakes; runs no workflow
    const env = { ORPC_DBOS_TEST_URL: db.url };

    const doomed = startWorker(
      [
        `start:reserveThenShip:${wf.afterStep1}:order-a`,
        `start:reserveTyped:${wf.typedUnknown}:hang-b`,
        `start:reserveWaiting:${wf.resolvedUnknown}:hang-c`,
        `start:refund:${wf.decidedWhileDown}:order-d`,
      ],
      { ...env, ORPC_DBOS_GENERATION: "1" },
    );
    workers.push(doomed);
    await doomed.waitFor(new RegExp(`^AFTER_STEP_1 ${wf.afterStep1}$`));
    await doomed.waitFor(/^EFFECT hang-b$/);
    await doomed.waitFor(/^EFFECT hang-c$/);
    const approvalId = await untilSuspended(app.service, `dbos:${wf.decidedWhileDown}:refund`);
    expect((await doomed.kill("SIGKILL")).signal).toBe("SIGKILL");
    for (const order of ["order-a", "hang-b", "hang-c", "order-d"]) atKill[order] = (await effects(order)).length;

    // While no worker runs: the approver decides and the application wakes the workflow, twice.
    await app.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    await Promise.all([app.steps.waiting.wake({ approvalId }), app.steps.waiting.wake({ approvalId })]);

    recovered = startWorker(
      [
        `await:${wf.afterStep1}`,
        `await:${wf.typedUnknown}`,
        `await:${wf.resolvedUnknown}`,
        `await:${wf.decidedWhileDown}`,
        `start:refund:${wf.duplicateWake}:order-e`,
      ],
      { ...env, ORPC_DBOS_GENERATION: "2" },
    );
    workers.push(recovered);
    await recovered.waitFor(/^READY$/);
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) await worker.kill("SIGTERM");
    if (DBOS.isInitialized()) await DBOS.shutdown();
    await app?.close();
    await db?.drop();
  });

  it("WF2: killed after step 1's checkpoint, the relaunched workflow does not re-run step 1 and runs step 2 once", async () => {
    expect(atKill["order-a"]).toBe(1);
    const result = await resultOf(wf.afterStep1);
    // replayed: false — DBOS returned the checkpoint; a re-run step would have met the journal and replayed.
    expect(result.reserved).toMatchObject({ status: "completed", output: { reserved: "order-a" }, invocationId: `dbos:${wf.afterStep1}:reserve`, replayed: false });
    expect(result.shipped).toMatchObject({ status: "completed", output: { shipped: "order-a" }, replayed: false });
    expect((await effects("order-a")).map((e) => [e.capability_id, e.generation])).toEqual([
      ["orders.reserve", 1],
      ["orders.ship", 2],
    ]);
    const requested = await db.pool.query(
      "select count(*)::int as n from orpc_agent_audit_events where type = 'capability.requested' and capability_id = 'orders.reserve' and correlation_id = $1",
      [wf.afterStep1],
    );
    expect(requested.rows[0].n).toBe(1);
  });

  it("WF3: killed inside a step after its effect, the re-run step's invocation reports outcome-unknown, and the effect count stays 1", async () => {
    expect(atKill["hang-b"]).toBe(1);
    const result = await resultOf(wf.typedUnknown);
    expect(result).toMatchObject({ protocol: 1, status: "outcome-unknown", invocationId: `dbos:${wf.typedUnknown}:reserve` });
    expect(["in-progress", "lease-lapsed"]).toContain(result.reason);
    expect(await effects("hang-b")).toHaveLength(1);
    expect(await app.service.get(`dbos:${wf.typedUnknown}:reserve`)).toMatchObject({ fence: 1 });
  });

  it("WF3: a workflow waiting on that unknown outcome completes after resolve(applied) + wake, still with one effect", async () => {
    const invocationId = `dbos:${wf.resolvedUnknown}:reserve`;
    const record = await untilRecord(app.service, invocationId, (r) => r.state === "unknown");
    expect(record.unknownReason).toBe("lease-lapsed");
    await app.service.resolve(invocationId, { expectedFence: record.fence, by: ops, resolution: { kind: "applied", output: { reserved: "hang-c" } } });
    await app.steps.waiting.wake({ invocationId });

    expect(await resultOf(wf.resolvedUnknown)).toMatchObject({ status: "completed", output: { reserved: "hang-c" }, replayed: true });
    expect(await effects("hang-c")).toHaveLength(1);
  });

  it("WF4: an approval decided while the workflow process was down is picked up after restart; the step runs once, as the original requester", async () => {
    expect(atKill["order-d"]).toBe(0);
    const invocationId = `dbos:${wf.decidedWhileDown}:refund`;
    expect(await resultOf(wf.decidedWhileDown)).toMatchObject({ status: "completed", output: { refunded: 2500 }, invocationId });
    expect(await effects("order-d")).toEqual([
      {
        capability_id: "orders.refund",
        idempotency_key: idempotencyKeyOf(NAMESPACE, invocationId),
        correlation_id: wf.decidedWhileDown,
        actor_id: "u_dana",
        attributes: { generation: "2" }, // fresh: read by the process that resumed
        approver_id: "u_priya",
        generation: 2,
      },
    ]);
    // The two wakes sent while it was down were one message. Whether the restarted workflow consumed it or found
    // the decision first by reading the coordinator depends on timing; either way the step ran once (above).
    const topic = `orpc-agent:${(await app.service.get(invocationId))!.approvalId}`;
    expect((await messagesTo(wf.decidedWhileDown)).map((m) => m.topic)).toEqual([topic]);
  });

  it("WF4: a duplicate approval message to a live workflow is delivered once, and the step runs once", async () => {
    const invocationId = `dbos:${wf.duplicateWake}:refund`;
    const approvalId = await untilSuspended(app.service, invocationId);
    await app.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    await Promise.all([app.steps.waiting.wake({ approvalId }), app.steps.waiting.wake({ approvalId })]);

    expect(await resultOf(wf.duplicateWake)).toMatchObject({ status: "completed", output: { refunded: 2500 } });
    expect(await effects("order-e")).toHaveLength(1);
    expect(await messagesTo(wf.duplicateWake)).toEqual([{ topic: `orpc-agent:${approvalId}`, consumed: true }]);
  });
});
