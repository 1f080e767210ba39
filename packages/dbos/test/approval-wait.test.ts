// docs/architecture/spec/distributed.md#distributed-9-2 and docs/architecture/spec/distributed.md#distributed-10 WF4, WF5: approval-required suspends the workflow on DBOS's own durable wait
// (DBOS.recv on "orpc-agent:<approvalId>" plus a numbered coordinator read) until the application decides and
// wakes it; the step then resumes through service.resume under the original invocation id.
import { randomUUID } from "node:crypto";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { approvalEventKey, createDBOSCapabilitySteps, type DBOSCapabilitySteps } from "../src/index.js";
import { createTestDatabase, REAL_SERVER, type TestDatabase } from "./support/database.js";
import { launchDbos } from "./support/dbos.js";
import { idempotencyKeyOf, pgService, untilRecord, untilSuspended } from "./support/journal.js";
import { INVOCATIONS_DDL } from "./support/postgres.js";
import { createShop, type Shop } from "./support/shop.js";

const NAMESPACE = "approval-tests";
const u_priya = { id: "u_priya", kind: "user" as const };
let db: TestDatabase;
const service = pgService(() => db, NAMESPACE);
const shop = createShop();
const expiringShop = createShop({ approvalExpiresInMs: 300 });

const stepsFor = (s: Shop, approvalPollMs: number) =>
  createDBOSCapabilitySteps({ service, runtime: s.runtime, actor: s.actor, context: s.context, approvalPollMs });
const variants: Record<string, { shop: Shop; steps: DBOSCapabilitySteps }> = {
  // A minute between reads: only a wake ends these waits within a test's time.
  woken: { shop, steps: stepsFor(shop, 60_000) },
  polling: { shop, steps: stepsFor(shop, 100) },
  expiring: { shop: expiringShop, steps: stepsFor(expiringShop, 60_000) },
};

const refund = DBOS.registerWorkflow(
  async (variant: string, orderId: string, approvalMaxWaitMs?: number) =>
    variants[variant]!.steps.invoke<{ refunded: number }>("orders.refund", { orderId, cents: 1200 }, approvalMaxWaitMs === undefined ? { key: "refund" } : { key: "refund", approvalMaxWaitMs }),
  { name: "approval.refund" },
);

async function startRefund(variant: keyof typeof variants, orderId: string, approvalMaxWaitMs?: number) {
  const workflowID = `refund-${randomUUID()}`;
  const handle = await DBOS.startWorkflow(refund, { workflowID, authenticatedUser: "u_dana" })(variant, orderId, approvalMaxWaitMs);
  const invocationId = `dbos:${workflowID}:refund`;
  return { workflowID, invocationId, result: () => within(10_000, handle.getResult() as Promise<RemoteExecutionResult<{ refunded: number }>>) };
}

/** Fails fast instead of at the test timeout when a wait never ends. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const stepNames = async (workflowID: string) => (await DBOS.listWorkflowSteps(workflowID))!.map((step) => step.name);

/** Resolves once DBOS has recorded the step `name` of the workflow. */
async function untilStep(workflowID: string, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await stepNames(workflowID)).includes(name)) {
    if (Date.now() > deadline) throw new Error(`${workflowID} never recorded ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe(`the approval wait on a ${REAL_SERVER}`, () => {
  beforeAll(async () => {
    db = await createTestDatabase("approval");
    await db.pool.query(INVOCATIONS_DDL);
    await launchDbos(db.url);
  });
  afterAll(async () => {
    if (DBOS.isInitialized()) await DBOS.shutdown();
    await db?.drop();
  });
  afterEach(() => {
    shop.users.set("u_dana", { id: "u_dana", kind: "user", attributes: { tier: "silver" } });
  });

  it("WF4: decide + wake resumes the suspended step once, as the original requester with fresh attributes, under the original invocation", async () => {
    const run = await startRefund("woken", "o_wake");
    const approvalId = await untilSuspended(service, run.invocationId);
    expect(shop.effectsOf("o_wake")).toEqual([]);
    // What the suspended step waits for, published as a workflow event for the caller's UI.
    expect(await DBOS.getEvent(run.workflowID, approvalEventKey("refund"), { timeoutSeconds: 5 })).toMatchObject({
      status: "approval-required",
      invocationId: run.invocationId,
      approval: { id: approvalId, capabilityId: "orders.refund", status: "pending" },
    });
    expect((await DBOS.getWorkflowStatus(run.workflowID))?.status).toBe("PENDING");

    shop.users.set("u_dana", { id: "u_dana", kind: "user", attributes: { tier: "gold" } }); // changed while suspended
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    await variants.woken!.steps.wake({ approvalId });

    const result = await run.result();
    expect(result).toMatchObject({ status: "completed", output: { refunded: 1200 }, invocationId: run.invocationId });
    expect(shop.effectsOf("o_wake")).toEqual([
      expect.objectContaining({
        actor: { id: "u_dana", kind: "user", attributes: { tier: "gold" } },
        approver: "u_priya",
        surface: "workflow",
        correlationId: run.workflowID,
        idempotencyKey: idempotencyKeyOf(NAMESPACE, run.invocationId),
      }),
    ]);
    expect(await service.get(run.invocationId)).toMatchObject({ state: "settled", approvalId, fence: 2 });
    expect((await stepNames(run.workflowID)).filter((name) => name.startsWith("orpc-agent:"))).toEqual([
      "orpc-agent:invoke:refund",
      "orpc-agent:approval:refund:1",
      "orpc-agent:resume:refund",
    ]);
  });

  it("WF4: a duplicate wake is harmless: one message is delivered and the step resumes once", async () => {
    const run = await startRefund("woken", "o_twice");
    const approvalId = await untilSuspended(service, run.invocationId);
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    const { steps } = variants.woken!;
    await Promise.all([steps.wake({ approvalId }), steps.wake({ approvalId }), steps.wake({ invocationId: run.invocationId })]);

    expect(await run.result()).toMatchObject({ status: "completed", output: { refunded: 1200 } });
    expect(shop.effectsOf("o_twice")).toHaveLength(1);
    const { rows } = await db.pool.query("select consumed from dbos.notifications where destination_uuid = $1 and topic = $2", [
      run.workflowID,
      `orpc-agent:${approvalId}`,
    ]);
    expect(rows).toEqual([{ consumed: true }]);
    // The invocation-id wake may have found the row claimed by the resumed step and sent its (unawaited) journal
    // message: harmless, and why the count is taken here. After completion a wake queues nothing more.
    const notifications = async () =>
      (await db.pool.query("select count(*)::int as n from dbos.notifications where destination_uuid = $1", [run.workflowID])).rows[0].n;
    const before = await notifications();
    await steps.wake({ approvalId });
    expect(await notifications()).toBe(before);
  });

  it("WF4: a wake that reads the decision already consumed (its step resumed, the row not yet settled) sends nothing more", async () => {
    const run = await startRefund("woken", "o_consumed");
    const approvalId = await untilSuspended(service, run.invocationId);
    const suspended = (await service.get(run.invocationId))!;
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    await variants.woken!.steps.wake({ approvalId });
    expect(await run.result()).toMatchObject({ status: "completed" });
    expect((await shop.runtime().approvals.get(approvalId))?.status).toBe("consumed");

    // The journal as a concurrent wake read it a moment earlier: still pending on the approval.
    const lagging = Object.create(service, { get: { value: async () => suspended } }) as typeof service;
    const late = createDBOSCapabilitySteps({ service: lagging, runtime: shop.runtime, actor: shop.actor, context: shop.context });
    await late.wake({ invocationId: run.invocationId });
    const { rows } = await db.pool.query("select consumed from dbos.notifications where destination_uuid = $1 and topic = $2", [
      run.workflowID,
      `orpc-agent:${approvalId}`,
    ]);
    expect(rows).toEqual([{ consumed: true }]);
  });

  it("WF4: a wake before the decision does not swallow the wake that follows it", async () => {
    const run = await startRefund("woken", "o_early");
    const approvalId = await untilSuspended(service, run.invocationId);
    const { steps } = variants.woken!;
    await steps.wake({ approvalId }); // nothing decided yet: the workflow reads "pending" and waits again
    await untilStep(run.workflowID, "orpc-agent:approval:refund:1");
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    await steps.wake({ approvalId });

    expect(await run.result()).toMatchObject({ status: "completed", output: { refunded: 1200 } });
    expect(shop.effectsOf("o_early")).toHaveLength(1);
    expect((await db.pool.query("select consumed from dbos.notifications where destination_uuid = $1", [run.workflowID])).rows).toEqual([
      { consumed: true },
      { consumed: true },
    ]);
  });

  it("a workflow cancelled while suspended and resumed in the same process keeps its key and its suspension", async () => {
    const run = await startRefund("woken", "o_resumed");
    const approvalId = await untilSuspended(service, run.invocationId);
    await DBOS.cancelWorkflow(run.workflowID);
    await variants.woken!.steps.wake({ approvalId }); // ends the wait now, so the run notices its cancellation
    await expect(run.result()).rejects.toThrow(/cancelled/);

    // A new run of the same workflow: the key is free again in it, and the recorded suspension replays.
    const resumed = await DBOS.resumeWorkflow<RemoteExecutionResult<{ refunded: number }>>(run.workflowID);
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    await variants.woken!.steps.wake({ approvalId });
    expect(await within(10_000, resumed.getResult())).toMatchObject({ status: "completed", output: { refunded: 1200 }, invocationId: run.invocationId });
    expect(shop.effectsOf("o_resumed")).toHaveLength(1);
  });

  it("WF4: a lost wake costs latency only: the numbered coordinator read finds the decision", async () => {
    const run = await startRefund("polling", "o_lost");
    const approvalId = await untilSuspended(service, run.invocationId);
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya }); // no wake

    expect(await run.result()).toMatchObject({ status: "completed", output: { refunded: 1200 } });
    expect(shop.effectsOf("o_lost")).toHaveLength(1);
    const reads = (await stepNames(run.workflowID)).filter((name) => name.startsWith("orpc-agent:approval:refund:"));
    expect(reads.length).toBeGreaterThanOrEqual(1);
  });

  it("an unreadable coordinator is not a decision: the wait goes on until a read succeeds", async () => {
    const run = await startRefund("polling", "o_flaky");
    const approvalId = await untilSuspended(service, run.invocationId);
    await shop.runtime().approvals.decide(approvalId, { status: "approved", approver: u_priya });
    shop.plan.coordinatorDown = true;
    try {
      await untilStep(run.workflowID, "orpc-agent:approval:refund:2");
    } finally {
      shop.plan.coordinatorDown = false;
    }
    expect(await run.result()).toMatchObject({ status: "completed", output: { refunded: 1200 } });
    expect(shop.effectsOf("o_flaky")).toHaveLength(1);
  });

  it("WF5: a rejected approval settles failed APPROVAL_REJECTED, and nothing runs", async () => {
    const run = await startRefund("woken", "o_rejected");
    const approvalId = await untilSuspended(service, run.invocationId);
    await shop.runtime().approvals.decide(approvalId, { status: "rejected", approver: u_priya });
    await variants.woken!.steps.wake({ approvalId });

    expect(await run.result()).toMatchObject({
      status: "failed",
      error: { code: "APPROVAL_REJECTED", message: "The approval was rejected.", retryable: false },
      invocationId: run.invocationId,
    });
    expect(shop.effectsOf("o_rejected")).toEqual([]);
    expect(await service.get(run.invocationId)).toMatchObject({ state: "settled", outcome: { status: "failed" } });
  });

  it("WF5: an approval left to expire settles failed APPROVAL_EXPIRED without a wake, and nothing runs", async () => {
    const run = await startRefund("expiring", "o_expired");
    await untilSuspended(service, run.invocationId);
    expect(await run.result()).toMatchObject({ status: "failed", error: { code: "APPROVAL_EXPIRED", retryable: false } });
    expect(expiringShop.effectsOf("o_expired")).toEqual([]);
    expect(await service.get(run.invocationId)).toMatchObject({ state: "settled" });
  });

  it("approvalMaxWaitMs ends the wait with the service's typed answer and leaves the approval and its row resumable", async () => {
    const run = await startRefund("woken", "o_maxwait", 200);
    const result = await run.result();
    expect(result).toMatchObject({ status: "failed", error: { code: "APPROVAL_PENDING", retryable: true } });
    expect(shop.effectsOf("o_maxwait")).toEqual([]);
    const record = await untilRecord(service, run.invocationId, (r) => r.state === "pending");
    expect((await shop.runtime().approvals.get(record.approvalId!))?.status).toBe("pending");
  });
});
