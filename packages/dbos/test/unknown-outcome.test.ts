// docs/architecture/spec/distributed.md#distributed-9-2 and docs/architecture/spec/distributed.md#distributed-10 WF3 (in process), WF8, D-4: an effect whose outcome is unknown is never retried
// by DBOS. Without `unknown.wait` it reaches the workflow as a typed `outcome-unknown`; with it, the workflow
// waits durably until the application resolves the row, then re-runs the invoke step under a new name with the
// same invocation id: a replay of the resolution, or the one re-run a `not-applied` resolution authorized.
import { randomUUID } from "node:crypto";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { createDBOSCapabilitySteps, type DBOSCapabilitySteps, type DBOSCapabilityStepsOptions } from "../src/index.js";
import { createTestDatabase, REAL_SERVER, type TestDatabase } from "./support/database.js";
import { launchDbos } from "./support/dbos.js";
import { idempotencyKeyOf, pgService, untilRecord } from "./support/journal.js";
import { INVOCATIONS_DDL } from "./support/postgres.js";
import { createShop } from "./support/shop.js";

const NAMESPACE = "unknown-tests";
const ops = { id: "ops_1", kind: "user" as const };
let db: TestDatabase;
const service = pgService(() => db, NAMESPACE);
const shop = createShop();

const stepsWith = (o: Partial<DBOSCapabilityStepsOptions<unknown>>) =>
  createDBOSCapabilitySteps({ service, runtime: shop.runtime, actor: shop.actor, context: shop.context, ...o });
const variants: Record<string, DBOSCapabilitySteps> = {
  noWait: stepsWith({ unknown: { wait: false } }),
  woken: stepsWith({ approvalPollMs: 60_000 }), // the default: wait up to 7 days; only a wake ends it within a test
  polling: stepsWith({ approvalPollMs: 100 }),
  shortWait: stepsWith({ approvalPollMs: 100, unknown: { wait: true, maxWaitMs: 300 } }),
};

const charge = DBOS.registerWorkflow(
  async (variant: string, orderId: string) => variants[variant]!.invoke<{ charged: string }>("orders.charge", { orderId }, { key: "charge" }),
  { name: "unknown.charge" },
);

async function startCharge(variant: keyof typeof variants, orderId: string) {
  shop.plan.chargesThatHang = 1; // the first execution takes effect, then outlives its timeout
  const workflowID = `charge-${randomUUID()}`;
  const handle = await DBOS.startWorkflow(charge, { workflowID, authenticatedUser: "u_dana" })(variant, orderId);
  return {
    workflowID,
    invocationId: `dbos:${workflowID}:charge`,
    result: () => handle.getResult() as Promise<RemoteExecutionResult<{ charged: string }>>,
  };
}

const adapterSteps = async (workflowID: string) => (await DBOS.listWorkflowSteps(workflowID))!.map((step) => step.name).filter((name) => name.startsWith("orpc-agent:invoke"));
const unknownRow = (invocationId: string) => untilRecord(service, invocationId, (r) => r.state === "unknown");

describe(`unknown outcomes on a ${REAL_SERVER}`, () => {
  beforeAll(async () => {
    db = await createTestDatabase("unknown");
    await db.pool.query(INVOCATIONS_DDL);
    await launchDbos(db.url);
  });
  afterAll(async () => {
    if (DBOS.isInitialized()) await DBOS.shutdown();
    await db?.drop();
  });

  it("D-4: without unknown.wait the workflow receives outcome-unknown as a typed value; the step is never retried", async () => {
    const run = await startCharge("noWait", "o_typed");
    expect(await run.result()).toEqual({
      protocol: 1,
      status: "outcome-unknown",
      invocationId: run.invocationId,
      reason: "interrupted",
      message: expect.stringMatching(/reconcile it before repeating it/),
    });
    expect(shop.effectsOf("o_typed")).toHaveLength(1);
    expect(await service.get(run.invocationId)).toMatchObject({ state: "unknown", unknownReason: "interrupted", fence: 1 });
    expect(await adapterSteps(run.workflowID)).toEqual(["orpc-agent:invoke:charge"]);
  });

  it("WF3: with unknown.wait, resolve(applied) + wake completes the workflow with the resolution, and nothing runs again", async () => {
    const run = await startCharge("woken", "o_applied");
    const record = await unknownRow(run.invocationId);
    await service.resolve(run.invocationId, { expectedFence: record.fence, by: ops, resolution: { kind: "applied", output: { charged: "o_applied" } } });
    await variants.woken!.wake({ invocationId: run.invocationId });

    expect(await run.result()).toMatchObject({ status: "completed", output: { charged: "o_applied" }, replayed: true, invocationId: run.invocationId });
    expect(shop.effectsOf("o_applied")).toHaveLength(1);
    expect(await adapterSteps(run.workflowID)).toEqual(["orpc-agent:invoke:charge", "orpc-agent:invoke:charge:1"]);
  });

  it("WF8: resolve(not-applied) releases the row; the step runs exactly once more, under the same idempotency key", async () => {
    const run = await startCharge("woken", "o_again");
    const record = await unknownRow(run.invocationId);
    await service.resolve(run.invocationId, { expectedFence: record.fence, by: ops, resolution: { kind: "not-applied" } });
    await variants.woken!.wake({ invocationId: run.invocationId });

    expect(await run.result()).toMatchObject({ status: "completed", output: { charged: "o_again" }, replayed: false });
    const effects = shop.effectsOf("o_again");
    expect(effects).toHaveLength(2);
    expect(effects.map((effect) => effect.idempotencyKey)).toEqual([
      idempotencyKeyOf(NAMESPACE, run.invocationId),
      idempotencyKeyOf(NAMESPACE, run.invocationId),
    ]);
    expect(effects[0]!.executionId).not.toBe(effects[1]!.executionId);
    expect(await service.get(run.invocationId)).toMatchObject({ state: "settled", fence: 2, resolution: { kind: "not-applied" } });
  });

  it("a resolution whose wake is lost is found by the journal read that ends each bounded wait", async () => {
    const run = await startCharge("polling", "o_polled");
    const record = await unknownRow(run.invocationId);
    await service.resolve(run.invocationId, { expectedFence: record.fence, by: ops, resolution: { kind: "failed", publicMessage: "The card was declined." } });

    expect(await run.result()).toMatchObject({ status: "failed", error: { code: "EXECUTION_FAILED", message: "The card was declined.", retryable: false } });
    expect(shop.effectsOf("o_polled")).toHaveLength(1);
  });

  it("once unknown.maxWaitMs has passed the outcome-unknown is returned, still never retried", async () => {
    const run = await startCharge("shortWait", "o_gave_up");
    expect(await run.result()).toMatchObject({ status: "outcome-unknown", reason: "interrupted", invocationId: run.invocationId });
    expect(shop.effectsOf("o_gave_up")).toHaveLength(1);
    expect(await adapterSteps(run.workflowID)).toEqual(["orpc-agent:invoke:charge"]);
    expect(await service.get(run.invocationId)).toMatchObject({ state: "unknown" });
  });
});
