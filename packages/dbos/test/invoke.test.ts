// docs/architecture/spec/distributed.md#distributed-9-2 and docs/architecture/spec/distributed.md#distributed-10 WF1, WF6, WF7, WF9, WF10: identity of a step's invocation, its surface and
// correlation, per-run keys, no engine retries, replay of a finished workflow, and the options' refusals.
import { randomUUID } from "node:crypto";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { createDBOSCapabilitySteps, dbosInvocationId, type DBOSInvokeOptions } from "../src/index.js";
import { createTestDatabase, REAL_SERVER, type TestDatabase } from "./support/database.js";
import { launchDbos } from "./support/dbos.js";
import { idempotencyKeyOf, pgService } from "./support/journal.js";
import { INVOCATIONS_DDL } from "./support/postgres.js";
import { createShop } from "./support/shop.js";

const NAMESPACE = "invoke-tests";
let db: TestDatabase;
const shop = createShop();
const service = pgService(() => db, NAMESPACE);
const runtimeFactory = { calls: 0, failNext: false };
const steps = createDBOSCapabilitySteps({
  service,
  runtime: () => {
    runtimeFactory.calls++;
    if (runtimeFactory.failNext) {
      runtimeFactory.failNext = false;
      throw new Error("runtime unavailable");
    }
    return shop.runtime();
  },
  actor: shop.actor,
  context: shop.context,
});

const oneStep = DBOS.registerWorkflow(async (capabilityId: string, input: unknown, options: DBOSInvokeOptions) => steps.invoke(capabilityId, input, options), {
  name: "invoke.oneStep",
});
const lookupThenShip = DBOS.registerWorkflow(
  async (orderId: string, secondKey: string) => {
    const looked = await steps.invoke("orders.lookup", { orderId }, { key: "lookup" });
    const shipped = await steps.invoke("orders.ship", { orderId }, { key: secondKey });
    return { looked, shipped };
  },
  { name: "invoke.lookupThenShip" },
);
const invokeInsideStep = DBOS.registerWorkflow(
  async () => DBOS.runStep(() => steps.invoke("orders.lookup", { orderId: "o_step" }, { key: "nested" }), { name: "app-step" }),
  { name: "invoke.insideStep" },
);
const wakeInsideWorkflow = DBOS.registerWorkflow(async () => steps.wake({ approvalId: "apr_anything" }), { name: "invoke.wakeInside" });

const start = <A extends unknown[], R>(workflow: (...args: A) => Promise<R>, workflowID = `wf-${randomUUID()}`) => ({
  workflowID,
  run: async (...args: A) => (await DBOS.startWorkflow(workflow, { workflowID, authenticatedUser: "u_dana" })(...args)).getResult(),
});

describe(`steps.invoke on a ${REAL_SERVER}`, () => {
  beforeAll(async () => {
    db = await createTestDatabase("invoke");
    await db.pool.query(INVOCATIONS_DDL);
    await launchDbos(db.url);
  });
  afterAll(async () => {
    if (DBOS.isInitialized()) await DBOS.shutdown();
    await db?.drop();
  });

  it("WF1: each step invokes on surface workflow as dbos:<workflowId>:<key>, correlated by the workflow id, with the journal's effect key", async () => {
    const { workflowID, run } = start(lookupThenShip);
    const result = await run("o_wf1", "ship");
    expect(result.looked).toMatchObject({ status: "completed", output: { orderId: "o_wf1", status: "delivered" }, invocationId: `dbos:${workflowID}:lookup` });
    expect(result.shipped).toMatchObject({ status: "completed", output: { shipped: "o_wf1" }, invocationId: `dbos:${workflowID}:ship`, replayed: false });

    const record = await service.get(`dbos:${workflowID}:ship`);
    expect(record).toMatchObject({ state: "settled", surface: "workflow", capabilityId: "orders.ship", correlationId: workflowID, actor: { id: "u_dana", kind: "user" }, fence: 1 });
    expect(shop.effectsOf("o_wf1")).toEqual([
      expect.objectContaining({
        capabilityId: "orders.ship",
        surface: "workflow",
        correlationId: workflowID,
        idempotencyKey: idempotencyKeyOf(NAMESPACE, `dbos:${workflowID}:ship`),
        actor: { id: "u_dana", kind: "user", attributes: { tier: "silver" } },
      }),
    ]);
    const events = shop.auditOf(workflowID);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.surface).toBe("workflow");

    // The steps DBOS recorded, by the adapter's names: explicit keys, never retried.
    const recorded = (await DBOS.listWorkflowSteps(workflowID))!.map((step) => step.name);
    expect(recorded).toEqual(["orpc-agent:invoke:lookup", "orpc-agent:invoke:ship"]);
  });

  it("WF9: starting the same workflow id again returns the stored result and invokes nothing", async () => {
    const { workflowID, run } = start(oneStep);
    const first = await run("orders.ship", { orderId: "o_wf9" }, { key: "ship" });
    const runtimes = shop.runtimesBuilt();
    const again = await (await DBOS.startWorkflow(oneStep, { workflowID, authenticatedUser: "u_dana" })("orders.ship", { orderId: "o_wf9" }, { key: "ship" })).getResult();
    expect(again).toEqual(first);
    expect(shop.runtimesBuilt()).toBe(runtimes);
    expect(shop.effectsOf("o_wf9")).toHaveLength(1);
    expect(shop.auditOf(workflowID).filter((event) => event.type === "capability.requested")).toHaveLength(1);
  });

  it("WF6: a key used twice in one run throws before its second step; the first call's outcome stands", async () => {
    const { workflowID, run } = start(lookupThenShip);
    await expect(run("o_wf6", "lookup")).rejects.toThrow(/Step key "lookup" is already used/);
    expect(await service.get(`dbos:${workflowID}:lookup`)).toMatchObject({ state: "settled", capabilityId: "orders.lookup" });
    expect(shop.effectsOf("o_wf6")).toEqual([]);
    expect((await DBOS.listWorkflowSteps(workflowID))!.map((step) => step.name)).toEqual(["orpc-agent:invoke:lookup"]);
  });

  it("WF6: the same key in another workflow, or another key in the same one, is a different invocation", async () => {
    const a = start(lookupThenShip);
    const b = start(lookupThenShip);
    const [ra, rb] = await Promise.all([a.run("o_wf6b", "ship"), b.run("o_wf6b", "ship")]);
    expect(ra.shipped).toMatchObject({ status: "completed", invocationId: `dbos:${a.workflowID}:ship` });
    expect(rb.shipped).toMatchObject({ status: "completed", invocationId: `dbos:${b.workflowID}:ship` });
    expect(new Set(shop.effectsOf("o_wf6b").map((effect) => effect.idempotencyKey)).size).toBe(2);
  });

  it("WF7: DBOS never retries the step: a step that throws fails the workflow after one attempt, nothing journaled", async () => {
    runtimeFactory.failNext = true;
    const calls = runtimeFactory.calls;
    const { workflowID, run } = start(oneStep);
    await expect(run("orders.ship", { orderId: "o_wf7" }, { key: "ship" })).rejects.toThrow("runtime unavailable");
    expect(runtimeFactory.calls - calls).toBe(1);
    expect(await service.get(`dbos:${workflowID}:ship`)).toBeNull();
    expect(shop.effectsOf("o_wf7")).toEqual([]);
    expect((await DBOS.getWorkflowStatus(workflowID))?.status).toBe("ERROR");
  });

  it("rejects ambiguous invocation ids: a workflow id with ':' or characters the journal cannot hold, and malformed keys", async () => {
    await expect(start(oneStep, "order:42").run("orders.ship", { orderId: "o_ids" }, { key: "ship" })).rejects.toThrow(/contains ":"/);
    await expect(start(oneStep, "order/42").run("orders.ship", { orderId: "o_ids" }, { key: "ship" })).rejects.toThrow(/cannot form an invocation id/);
    await expect(start(oneStep, `w${"x".repeat(80)}`).run("orders.ship", { orderId: "o_ids" }, { key: "k".repeat(64) })).rejects.toThrow(/within 128 characters/);
    for (const key of ["", "a:b", "has space", "k".repeat(65)]) {
      await expect(start(oneStep).run("orders.ship", { orderId: "o_ids" }, { key }), JSON.stringify(key)).rejects.toThrow(/step key must match/);
    }
    expect(shop.effectsOf("o_ids")).toEqual([]);
    expect(await service.list({})).not.toContainEqual(expect.objectContaining({ capabilityId: "orders.ship", correlationId: "order:42" }));
  });

  it("refuses to run outside a workflow body: from plain code and from inside a step", async () => {
    await expect(steps.invoke("orders.lookup", { orderId: "o_out" }, { key: "out" })).rejects.toThrow(/must be called from a DBOS workflow function/);
    await expect(start(invokeInsideStep).run()).rejects.toThrow(/must be called from a DBOS workflow function/);
    await expect(start(wakeInsideWorkflow).run()).rejects.toThrow(/outside workflows/);
  });

  it("validates invoke arguments before any step", async () => {
    const cases: [string, DBOSInvokeOptions, RegExp][] = [
      ["", { key: "k" }, /capabilityId must be a non-empty string/],
      ["orders.ship", null as never, /options must be \{ key, approvalMaxWaitMs\? \}/],
      ["orders.ship", { key: "k", approvalMaxWaitMs: 0 }, /approvalMaxWaitMs must be a finite number > 0/],
      ["orders.ship", { key: "k", approvalMaxWaitMs: Number.POSITIVE_INFINITY }, /approvalMaxWaitMs/],
    ];
    for (const [capabilityId, options, message] of cases) {
      const { workflowID, run } = start(oneStep);
      await expect(run(capabilityId, { orderId: "o_opt" }, options)).rejects.toThrow(message);
      expect(await DBOS.listWorkflowSteps(workflowID)).toEqual([]);
    }
    expect(shop.effectsOf("o_opt")).toEqual([]);
  });

  it("dbosInvocationId spells the scheme and rejects what it cannot spell unambiguously", () => {
    expect(dbosInvocationId("refund-o_1001", "refund")).toBe("dbos:refund-o_1001:refund");
    expect(() => dbosInvocationId("a:b", "k")).toThrow(TypeError);
    expect(() => dbosInvocationId("", "k")).toThrow(TypeError);
    expect(() => dbosInvocationId("wf", "k:1")).toThrow(TypeError);
  });

  it("wake refuses malformed targets and ignores ids no step waits on", async () => {
    await expect(steps.wake({} as never)).rejects.toThrow(TypeError);
    await expect(steps.wake({ approvalId: "" })).rejects.toThrow(/approvalId must be a non-empty string/);
    await expect(steps.wake({ invocationId: "inv-123" })).rejects.toThrow(/dbos:<workflowId>:<key>/);
    await expect(steps.wake({ approvalId: "apr_nobody_waits" })).resolves.toBeUndefined();
    await expect(steps.wake({ invocationId: "dbos:no-such-workflow:k" })).resolves.toBeUndefined();
  });
});

describe("createDBOSCapabilitySteps options", () => {
  const memoryService = () => createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "memory", revision: "test" });
  const base = () => ({ service: service, runtime: shop.runtime, actor: shop.actor, context: shop.context });

  it("WF10: a service on a non-durable journal is refused unless allowNonDurableJournal", () => {
    expect(() => createDBOSCapabilitySteps({ ...base(), service: memoryService() })).toThrow(/not durable/);
    expect(() => createDBOSCapabilitySteps({ ...base(), service: memoryService(), allowNonDurableJournal: false })).toThrow(/not durable/);
    expect(createDBOSCapabilitySteps({ ...base(), service: memoryService(), allowNonDurableJournal: true })).toEqual({
      invoke: expect.any(Function),
      wake: expect.any(Function),
    });
  });

  it("throws TypeError for missing callbacks and out-of-range numbers", () => {
    expect(() => createDBOSCapabilitySteps(undefined as never)).toThrow(TypeError);
    expect(() => createDBOSCapabilitySteps({ ...base(), service: {} as never })).toThrow(/InvocationService/);
    for (const name of ["runtime", "actor", "context"] as const) {
      expect(() => createDBOSCapabilitySteps({ ...base(), [name]: undefined } as never), name).toThrow(new RegExp(`${name} must be a function`));
    }
    for (const approvalPollMs of [0, -1, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(() => createDBOSCapabilitySteps({ ...base(), approvalPollMs })).toThrow(/approvalPollMs/);
    }
    expect(() => createDBOSCapabilitySteps({ ...base(), unknown: { wait: "yes" } as never })).toThrow(/unknown must be/);
    expect(() => createDBOSCapabilitySteps({ ...base(), unknown: { wait: true, maxWaitMs: 0 } })).toThrow(/maxWaitMs/);
    expect(() => createDBOSCapabilitySteps({ ...base(), allowNonDurableJournal: "true" as never })).toThrow(/allowNonDurableJournal/);
  });
});
