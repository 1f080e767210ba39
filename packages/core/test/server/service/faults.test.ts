import { describe, expect, it } from "vitest";
import { allow, definePolicy } from "../../../src/index.js";
import { createInMemoryInvocationJournal, type InvocationJournal } from "../../../src/server/index.js";
import { createShopApp, dana, latch, manualClock, newInvocationId, type ShopApp } from "../remote-fixture.js";

const context = { tenant: "t1" };
const refund = (app: ShopApp, invocationId: string) =>
  app.service.invoke(app.makeRuntime(), "orders.refund", { orderId: "o1", cents: 7 }, { actor: dana, context, surface: "aiSdk", invocationId });

describe("faults (distributed.md §10 F1, F4)", () => {
  it("D-4 / F1: a worker that stops after its effect: same id → in-progress, then lease-lapsed, never re-executed; resolve(applied) → replay completed", async () => {
    const app = createShopApp();
    const invocationId = newInvocationId();
    const gate = app.effects.hold();
    const dead = refund(app, invocationId); // the worker "dies" inside its handler, after the effect
    await app.effects.entered();
    expect(await refund(app, invocationId)).toMatchObject({ status: "outcome-unknown", reason: "in-progress" });
    app.clock.advance(30_001);
    expect(await refund(app, invocationId)).toMatchObject({ status: "outcome-unknown", reason: "lease-lapsed" });
    const reconciled = await app.service.reconcile(invocationId, { actor: dana, surface: "aiSdk" });
    expect(reconciled).toMatchObject({ state: "unknown", reason: "lease-lapsed" });
    expect(app.effects.count("orders.refund")).toBe(1);

    // The application checks the domain by the idempotency key and asserts the effect happened.
    const record = (await app.service.get(invocationId))!;
    await app.service.resolve(invocationId, {
      expectedFence: record.fence,
      by: { id: "u_ops", kind: "user" },
      note: "ledger shows the refund",
      resolution: { kind: "applied", output: { refunded: 7, orderId: "o1" } },
    });
    const replay = await refund(app, invocationId);
    expect(replay).toEqual({ protocol: 1, invocationId, executionId: "", replayed: true, status: "completed", output: { refunded: 7, orderId: "o1" } });

    // The late worker's settlement is refused: the application's resolution stands.
    gate.release();
    expect(await dead).toMatchObject({ status: "completed", replayed: false });
    expect(app.events.map((e) => e.type)).toContain("stale_settlement");
    expect(await refund(app, invocationId)).toEqual(replay);
    expect(app.effects.count("orders.refund")).toBe(1);
  });

  /** A journal whose renewals at fence 1 wait until released: a paused heartbeat. */
  function pausedHeartbeatJournal(inner: InvocationJournal) {
    const resume = latch();
    let pausedRenewals = 0;
    const journal: InvocationJournal = Object.create(inner);
    journal.renew = async (k, fence, leaseExpiresAt) => {
      if (fence === 1) {
        pausedRenewals++;
        await resume.promise;
      }
      return inner.renew(k, fence, leaseExpiresAt);
    };
    return { journal, release: resume.release, pausedRenewals: () => pausedRenewals };
  }

  it("D-3 / F4: a stale fencing token: A's heartbeat pauses, its lease lapses, the app releases, B re-claims; A's renew fails and aborts A before stage 11", async () => {
    const clock = manualClock();
    const paused = pausedHeartbeatJournal(createInMemoryInvocationJournal({ now: clock.now }));
    const policyGate = latch();
    const policyEntered = latch();
    let holds = 1;
    const hold = definePolicy("hold-first", async () => {
      if (holds-- > 0) {
        policyEntered.release();
        await policyGate.promise;
      }
      return allow();
    });
    const app = createShopApp({ policies: [hold], service: { journal: paused.journal, leaseMs: 60, now: clock.now } });
    const invocationId = newInvocationId();

    const a = refund(app, invocationId); // A: claimed at fence 1, held in its invocation policy (before stage 11)
    await policyEntered.promise;
    await expect.poll(() => paused.pausedRenewals()).toBeGreaterThan(0);
    clock.advance(61);
    await app.service.resolve(invocationId, { expectedFence: 1, by: { id: "u_ops", kind: "user" }, resolution: { kind: "not-applied" } });
    const b = await refund(app, invocationId); // B re-claims at fence 2 and runs
    expect(b).toMatchObject({ status: "completed", replayed: false });
    expect((await app.service.get(invocationId))!.fence).toBe(2);

    paused.release(); // A's paused renewal reaches the journal with fence 1: refused
    await expect.poll(() => app.events.some((e) => e.type === "fenced_out")).toBe(true);
    policyGate.release();
    expect(await a).toMatchObject({ status: "outcome-unknown", reason: "fenced-out", invocationId });
    expect(app.effects.count("orders.refund")).toBe(1); // A never reached its handler
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled", fence: 2 });
    expect(await refund(app, invocationId)).toEqual({ ...b, replayed: true });
    expect(app.events.find((e) => e.type === "fenced_out")).toMatchObject({ data: { fence: 1 } });
  });

  it("F4: a superseded holder that finishes anyway is refused (stale_settlement) and still answers its real envelope", async () => {
    const clock = manualClock();
    const paused = pausedHeartbeatJournal(createInMemoryInvocationJournal({ now: clock.now }));
    const app = createShopApp({ service: { journal: paused.journal, leaseMs: 60, now: clock.now } });
    const invocationId = newInvocationId();
    const gate = app.effects.hold();
    const a = refund(app, invocationId);
    await app.effects.entered();
    await expect.poll(() => paused.pausedRenewals()).toBeGreaterThan(0);
    clock.advance(61);
    // A wrong resolution (the effect did happen): the framework lets the application decide, and B runs again.
    await app.service.resolve(invocationId, { expectedFence: 1, by: { id: "u_ops", kind: "user" }, resolution: { kind: "not-applied" } });
    gate.release();
    const b = await refund(app, invocationId);
    expect(b).toMatchObject({ status: "completed" });
    const aResult = await a;
    expect(aResult).toMatchObject({ status: "completed", replayed: false });
    expect(app.events.filter((e) => e.type === "stale_settlement")).toHaveLength(1);
    paused.release();
    // Both executions carried the same effect key, so downstream deduplication sees one logical operation.
    const keys = app.effects.keys.filter((k) => k.capabilityId === "orders.refund").map((k) => k.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(await app.service.get(invocationId)).toMatchObject({ state: "settled", fence: 2 });
  });
});
